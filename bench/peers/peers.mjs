// bench/peers/peers.mjs - tn_cdt against Delaunator + Constrainautor on the
// SAME input, timed in one run.
//
//   node peers.mjs --bench BUILD/tilenav-bench [--runs R] [--unit] [--alternate] MAP...
//   node peers.mjs --bench BUILD/tilenav-bench --points N [--seed S] [--runs R]
//
// Input: for each map, `tilenav-bench cdt --dump-input MAP --runs R` writes
// the exact points and constraint segments tn_cdt triangulates (the outline
// extraction of bench/bench_gen.c: tn_navmesh's rule, merged runs split at
// every vertex, so no point lies inside a segment - Constrainautor requires
// that), our triangle counts, and the median wall / thread-CPU time of R of
// our builds (tn_cdt_build_i with TN_CDT_REMOVE_OUTSIDE).  Points mode:
// `--dump-points N --float` gives N uniform doubles in [0,1) and our time for
// tn_cdt_build_d.
//
// Peer: Delaunator.from-equivalent (new Delaunator(Float64Array)), then
// new Constrainautor(del, edges), then the same even-odd removal as ours (a
// layered breadth-first search from the hull: depth = least number of
// constraints crossed; odd depth kept).  Its triangle counts (whole hull, and
// kept) must equal ours.  We time R builds after a warm-up (at least 3 builds
// and 0.5 s, for the JIT) and print medians of wall time (performance.now)
// and process CPU time (process.cpuUsage, user + system: it includes V8's
// compiler and garbage-collector threads, which may run on the other core,
// so it can exceed wall time), then the ratios peer / ours.  Both sides run
// one after the other in this one invocation, so the machine's load is about
// the same for both.
//
// --alternate (two or more maps): every timed build, ours and the peer's,
// comes right after an untimed build of the next map in the list.  Timing
// one build over and over lets the CPU's branch predictors learn it (ours
// runs 1.3-1.6x faster so; the peer's JIT code barely changes): this is the
// case of a game rebuilding its mesh after an edit, between other work.
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Delaunator from 'delaunator';
import Constrainautor from '@kninnug/constrainautor';

function usage(msg) {
    if (msg) console.error('peers: ' + msg);
    console.error('usage: node peers.mjs --bench BUILD/tilenav-bench [--runs R] [--unit] MAP...\n' +
                  '       node peers.mjs --bench BUILD/tilenav-bench --points N [--seed S] ' +
                  '[--runs R]');
    process.exit(2);
}

const args = process.argv.slice(2);
let bench = null, runs = 0, points = -1, seed = 1, unit = false, alternate = false;
// --navmesh: our time is the full tn_navmesh_build of the map (outlines, both
// row sweeps, labels), against the peers' CDT of the same outline
let navmesh = false;
const maps = [];
for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--bench') bench = args[++i];
    else if (a === '--runs') runs = parseInt(args[++i], 10);
    else if (a === '--points') points = parseInt(args[++i], 10);
    else if (a === '--seed') seed = parseInt(args[++i], 10);
    else if (a === '--unit') unit = true;
    else if (a === '--alternate') alternate = true;
    else if (a === '--navmesh') navmesh = true;
    else if (a.startsWith('-')) usage('unknown option ' + a);
    else maps.push(a);
}
if (!bench) usage('--bench is required');
if (points < 0 && maps.length === 0) usage('give map files or --points N');
if (alternate && (points >= 0 || maps.length < 2)) usage('--alternate needs two or more maps');
if (!(runs > 0)) runs = points >= 0 ? 5 : 51;

const median = (v) => {
    const s = [...v].sort((x, y) => x - y), n = s.length;
    return n % 2 ? s[(n - 1) / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
};

// Even-odd removal over Delaunator's half-edges, same rule as tn_cdt.
function keepInside(del, con) {
    const { triangles, halfedges } = del;
    const nt = triangles.length / 3;
    const depth = new Int32Array(nt).fill(-1);
    let cur = [], nxt = [];
    for (let e = 0; e < halfedges.length; e++) {
        if (halfedges[e] !== -1) continue;
        const t = (e / 3) | 0;
        if (!con.isConstrained(e)) {
            if (depth[t] !== 0) { depth[t] = 0; cur.push(t); }
        } else if (depth[t] === -1) { depth[t] = -2; nxt.push(t); }
    }
    let d = 0;
    for (;;) {
        for (let i = 0; i < cur.length; i++) {
            const t = cur[i];
            for (let k = 0; k < 3; k++) {
                const e = 3 * t + k, f = halfedges[e];
                if (f === -1) continue;
                const u = (f / 3) | 0;
                if (depth[u] >= 0) continue;
                if (!con.isConstrained(e)) { depth[u] = d; cur.push(u); }
                else if (depth[u] === -1) { depth[u] = -2; nxt.push(u); }
            }
        }
        if (nxt.length === 0) break;
        d++;
        cur = [];
        for (const t of nxt) if (depth[t] === -2) { depth[t] = d; cur.push(t); }
        nxt = [];
    }
    let kept = 0;
    for (let t = 0; t < nt; t++) kept += depth[t] & 1;
    return kept;
}

function peerBuild(coords, edges, remove) {
    const del = new Delaunator(coords);
    const hull = del.triangles.length / 3;
    if (edges.length === 0) return { hull, kept: hull };
    const con = new Constrainautor(del, edges); // constrains every edge (its v4 API)
    return { hull, kept: remove ? keepInside(del, con) : hull };
}

function timePeer(coords, edges, remove, between) {
    let res = null;
    // warm-up: at least 3 builds and 0.5 s, so V8 has compiled the hot code
    const w0 = performance.now();
    for (let k = 0; k < 3 || performance.now() - w0 < 500; k++) {
        if (between) peerBuild(between.coords, between.edges, remove);
        res = peerBuild(coords, edges, remove);
    }
    const wall = [], cpu = [];
    for (let k = 0; k < runs; k++) {
        if (between) peerBuild(between.coords, between.edges, remove);
        const c0 = process.cpuUsage(), t0 = performance.now();
        res = peerBuild(coords, edges, remove);
        const t1 = performance.now(), c1 = process.cpuUsage(c0);
        wall.push(t1 - t0);
        cpu.push((c1.user + c1.system) / 1000);
    }
    return { res, wall: median(wall), cpu: median(cpu) };
}

const version = (pkg) => {
    const url = new URL(`./node_modules/${pkg}/package.json`, import.meta.url);
    return JSON.parse(readFileSync(url)).version;
};
const pad = (v, n) => String(v).padStart(n);

const tmp = mkdtempSync(join(tmpdir(), 'tilenav-peers-'));
let failed = false;
try {
    const rows = [];
    const jobs = points >= 0
        ? [{ name: `${points} random points`,
             args: ['cdt', '--dump-points', String(points), '--seed', String(seed), '--float'] }]
        : maps.map((m, i) => ({
            name: m.split('/').pop(),
            args: ['cdt', '--dump-input', m].concat(unit ? ['--unit'] : [],
                                                    navmesh ? ['--navmesh'] : []),
            other: alternate ? maps[(i + 1) % maps.length] : null }));
    const readInput = (args, r) => {
        const out = join(tmp, 'input.json');
        execFileSync(bench, args.concat(['--runs', String(r), '-o', out]),
                     { stdio: ['ignore', 'inherit', 'inherit'] });
        const inp = JSON.parse(readFileSync(out, 'utf8'));
        const coords = Float64Array.from(inp.points);
        const edges = [];
        for (let i = 0; i < inp.segments.length; i += 2)
            edges.push([inp.segments[i], inp.segments[i + 1]]);
        return { inp, coords, edges };
    };
    for (const job of jobs) {
        const between = job.other
            ? readInput(['cdt', '--dump-input', job.other].concat(unit ? ['--unit'] : []), 0)
            : null;
        const { inp, coords, edges } =
            readInput(job.other ? job.args.concat(['--alternate', job.other]) : job.args, runs);
        const remove = points < 0;
        const p = timePeer(coords, edges, remove, between);
        const countOk = p.res.kept === inp.triangles && p.res.hull === inp.triangles_hull;
        if (!countOk) failed = true;
        rows.push({ name: job.name, n: coords.length / 2, segs: edges.length, ours: inp.triangles,
                    peer: p.res.kept, countOk, ow: inp.ours_wall_ms, oc: inp.ours_cpu_ms,
                    pw: p.wall, pc: p.cpu });
    }
    console.log(`tn_cdt vs Delaunator ${version('delaunator')} + Constrainautor ` +
                `${version('@kninnug/constrainautor')} (node ${process.version}), ` +
                `medians of ${runs} builds each` + (points < 0 ? ', outside removed' : '') +
                (unit ? ', unit-edge outlines' : '') +
                (navmesh ? ', ours = the full tn_navmesh build' : '') +
                (alternate ? ', each build after one of the next map' : ''));
    console.log(['input'.padEnd(28), pad('points', 8), pad('segs', 6), pad('tris', 8),
                 pad('peer', 8), pad('ours ms', 9), pad('cpu', 8), pad('peer ms', 9),
                 pad('cpu', 8), pad('ratio', 7), pad('cpu', 6)].join(' '));
    for (const r of rows) {
        console.log([r.name.padEnd(28), pad(r.n, 8), pad(r.segs, 6), pad(r.ours, 8),
                     pad(r.peer + (r.countOk ? '' : '!'), 8), pad(r.ow.toFixed(3), 9),
                     pad(r.oc.toFixed(3), 8), pad(r.pw.toFixed(3), 9), pad(r.pc.toFixed(3), 8),
                     pad((r.pw / r.ow).toFixed(1) + 'x', 7),
                     pad((r.pc / r.oc).toFixed(1) + 'x', 6)].join(' '));
    }
    console.log('(ratio = peer time / our time: wall, then CPU; "!" marks a triangle count ' +
                'that differs from ours)');
} finally {
    rmSync(tmp, { recursive: true, force: true });
}
if (failed) {
    console.error('peers: triangle counts differ');
    process.exit(1);
}
