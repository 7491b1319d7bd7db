/* Placeholder: the agents subsystem is not written yet (see its issue). */
#include "tn_world.h"

const tn_subsystem tn_sub_agents = {.name = "agents"};
