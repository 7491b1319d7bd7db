// tests/pkg/consumer.cpp - a C++ program using the installed library: it
// must compile with g++ -Wall -Wextra -Werror -pedantic (no warnings from
// the headers) and link (extern "C" on every declaration).  Built and run
// by tests/e2e/package.sh against `make install-lib`.
#include <tilenav.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

static int failures = 0;
static void check(bool ok, const char *what)
{
    if (!ok) {
        std::fprintf(stderr, "consumer: FAILED: %s\n", what);
        failures++;
    }
}

int main()
{
    // The header's version and the linked library's agree.
    check(tn_version() == TN_VERSION_NUMBER, "tn_version() == TN_VERSION_NUMBER");
    check(std::strcmp(tn_version_string(), TN_VERSION_STRING) == 0, "tn_version_string()");

    // A map from text: a floor, a ledge, a wall.
    const std::string text = "tilenav-map 1\n"
                             "size 12 6\n"
                             "tiles\n"
                             "############\n"
                             "#..........#\n"
                             "#......##..#\n"
                             "#P...#.....#\n"
                             "#S...#....D#\n"
                             "############\n";
    tn_map *map = nullptr;
    tn_error err;
    tn_status s = tn_map_parse(text.data(), text.size(), "consumer", nullptr, &map, &err);
    check(tn_succeeded(s) && map && map->w == 12, err.msg);
    if (!map) return 1;

    // Platformer A* from the start over the wall to the right.
    tn_phys_params phys = tn_phys_default(4.0f);
    tn_jump_model jm;
    check(tn_succeeded(tn_jump_model_init(&jm, &phys, &err)), "jump model");
    tn_path *pf = nullptr;
    check(tn_succeeded(tn_path_create(map->w, map->h, &phys, 4096, nullptr, &pf, &err)),
          "path create");
    tn_path_query q = tn_path_query_make(map->start_x, map->start_y, 9, 4, 1, 1, &jm);
    std::vector<tn_path_node> nodes(256);
    int count = 0;
    tn_path_stats st;
    s = tn_path_find(pf, map, &q, nodes.data(), static_cast<int>(nodes.size()), &count, &st, &err);
    check(tn_succeeded(s) && !tn_status_detail(s, TN_PARTIAL_RESULT) && count > 1,
          "path over the wall");

    // A 4-connected flow field to the destination.
    tn_flow *flow = nullptr;
    check(tn_succeeded(tn_flow_create(map->w, map->h, 4, nullptr, &flow, &err)), "flow create");
    check(tn_succeeded(tn_flow_rebuild(flow, map, NULL)), "flow rebuild");
    check(tn_flow_dist(flow, 1, 4) > 0, "spawn reaches the destination");

    // The navmesh of the free space, and one path across it.
    tn_navmesh_config ncfg = tn_navmesh_default_config();
    tn_navmesh *nav = nullptr;
    tn_navquery *nq = nullptr;
    check(tn_succeeded(tn_navmesh_create(map->w, map->h, &ncfg, nullptr, &nav, &err)) &&
              tn_succeeded(tn_navmesh_build(nav, map, &err)),
          "navmesh build");
    if (nav) tn_navquery_create(nav, nullptr, &nq, &err);
    float xy[2 * 64];
    int n = 0;
    check(nq &&
              tn_succeeded(
                  tn_navquery_find_path(nq, 1.5f, 1.5f, 10.5f, 4.5f, 0.2f, xy, 64, &n, &err)) &&
              n >= 2,
          "navmesh path");

    // The surface graph of a 1x1 body, and a plan by a query object over the
    // wall to the ledge's right side.
    tn_surf_profile prof = tn_surf_profile_make(1, 1, &phys);
    tn_surf *graph = nullptr;
    tn_surf_query *sq = nullptr;
    tn_surf_stats sst;
    sst.frames = -1;
    check(tn_succeeded(tn_surf_create(map, &prof, nullptr, &graph, &err)) &&
              tn_succeeded(tn_surf_query_create(graph, nullptr, &sq, &err)),
          "surface graph and query object");
    if (sq) {
        s = tn_surf_query_find(sq, tn_surf_node_of_tile(graph, 1, 4), 9, 4, nullptr, 0, nullptr,
                               &sst, &err);
        check(tn_succeeded(s) && !tn_status_detail(s, TN_PARTIAL_RESULT) && sst.frames > 0,
              "graph plan over the wall");
    }

    std::printf("consumer: tilenav %s from C++: path %d nodes, flow distance %.0f, navmesh path %d "
                "points, graph plan %d frames\n",
                tn_version_string(), count, tn_flow_dist(flow, 1, 4), n, sst.frames);
    tn_surf_query_destroy(sq);
    tn_surf_destroy(graph);
    tn_navquery_destroy(nq);
    tn_navmesh_destroy(nav);
    tn_flow_destroy(flow);
    tn_path_destroy(pf);
    tn_map_destroy(map);
    return failures ? 1 : 0;
}
