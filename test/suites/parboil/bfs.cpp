// Parboil bfs (frontier-based single-source shortest paths), OpenCL base
// version, restructured into Ferry's dialect. Original:
// github.com/abduld/Parboil, benchmarks/bfs/src/opencl_base/main.cpp (host),
// kernel.cl (BFS_kernel) and config.h.
//
// The original pushes: each frontier node relaxes its edges with atom_min,
// claims newly reached nodes with atom_xchg and appends them to the next
// queue through a local-memory queue and atom_add on `tail`. Ferry's
// contract specifies atomics and local memory but does not implement them
// yet, so this is the nearest race-free version with the same host loop:
//   * the frontier is the set of nodes coloured with the previous level's
//     gray shade (GRAY0/GRAY1 alternate by level, as in the original);
//   * BFS_kernel pulls instead of pushing: node v takes the least of
//     cost[u] + w over its frontier neighbours u (the graph is symmetric, so
//     in-edges are out-edges) into `next`;
//   * BFS_commit, per node, blackens the old frontier and applies improved
//     costs, colouring improved nodes with this level's shade;
//   * countFrontier, one work-item, adds the new frontier's size to tail[0]
//     (the original's atom_add on tail).
// The host loop is the original's: read tail, write 0 into it, stop when
// the frontier is empty, else run the level. Costs converge to the same
// shortest distances. The graph is generated: node i is joined to i + 1 and
// 7i + 3 (mod n) both ways, with weights 1 + i mod 3.
//
//   bfs [NODES]
//
// Bytes the ORIGINAL host code moves at 1024 nodes, 4096 directed edges
// (Node and Edge are two ints, 8 B), with L = 12 levels run (as here: the
// levels depend on the graph and the source only), so L + 1 = 13 passes of
// the loop read tail (the last finds it 0 and stops):
//   clEnqueueWriteBuffer d_graph_nodes  1024*8 =  8192
//   clEnqueueWriteBuffer d_graph_edges  4096*8 = 32768
//   clEnqueueWriteBuffer d_color        1024*4 =  4096
//   clEnqueueWriteBuffer d_cost         1024*4 =  4096
//   clEnqueueWriteBuffer tail (h_top), d_cost[0] (zero), d_q1[0] (source):
//                                        3 x 4 =    12
//   per pass: clEnqueueReadBuffer tail 4 B, clEnqueueWriteBuffer tail 4 B:
//                                  13 x 4 each way =  52
//   clEnqueueReadBuffer d_cost, d_color 2 x 4096 = 8192
//   in 7 + 13 = 20 (49164 + 52 = 49216 B), out 2 + 13 = 15 (8192 + 52 =
//   8244 B).
// Whole-buffer optimum for this program: nodes, edges, color, cost in (4,
// 49152 B); `next` is fully written by BFS_kernel (next[kc.x]) before
// BFS_commit reads it, in every level: no copy; tail[0] is written by the
// host every pass and read by countFrontier: in once per level (12 x 4 B),
// and read by the host at the top of every later pass: out once per level
// (12 x 4 B); the first read finds the host's own value. At the end cost
// and color go home: out (2, 8192 B).
//   in 16 (49200 B), out 14 (8240 B), 36 dispatches (3 per level).
// suite-original: to_device 20 to_device_bytes 49216 from_device 15 from_device_bytes 8244
// ferry-test: args 1024
// ferry-test: to_device 16 to_device_bytes 49200 from_device 14 from_device_bytes 8240
// ferry-test: dispatches 36
#include "Print.h"

#include <cstdlib>
#include <vector>

constexpr int INF = 2147483647; // 2^31 - 1
constexpr int UP_LIMIT = 16677216; // colours above this are free to visit
constexpr int WHITE = 16677217;
constexpr int GRAY0 = 16677219;
constexpr int GRAY1 = 16677220;
constexpr int BLACK = 16677221;

struct Node {
  int x; // first edge
  int y; // number of edges
};
struct Edge {
  int x; // destination
  int y; // cost
};

// Node v's best cost through the current frontier (colour `frontier`).
FERRY_KERNEL void BFS_kernel(ferry::KernelContext kc, const Node *g_graph_nodes,
                             const Edge *g_graph_edges, const int *g_color,
                             const int *g_cost, int *next, int frontier) {
  const int v = kc.x;
  int best = g_cost[v];
  const Node cur_node = g_graph_nodes[v];
  for (int i = cur_node.x; i < cur_node.y + cur_node.x; i++) {
    const Edge cur_edge = g_graph_edges[i];
    const int u = cur_edge.x;
    if (g_color[u] == frontier && g_cost[u] != INF && g_cost[u] + cur_edge.y < best)
      best = g_cost[u] + cur_edge.y;
  }
  next[v] = best;
}

// Blackens the old frontier; nodes whose cost improved join the new one.
FERRY_KERNEL void BFS_commit(ferry::KernelContext kc, int *g_color, int *g_cost,
                             const int *next, int frontier, int gray_shade) {
  const int v = kc.x;
  int color = g_color[v];
  if (color == frontier)
    color = BLACK;
  if (next[v] < g_cost[v]) {
    g_cost[v] = next[v];
    if (color > UP_LIMIT)
      color = gray_shade;
  }
  g_color[v] = color;
}

// One work-item: tail[0] += the size of the new frontier.
FERRY_KERNEL void countFrontier(ferry::KernelContext kc, const int *g_color, int *tail,
                                int no_of_nodes, int gray_shade) {
  if (kc.x == 0) {
    int count = 0;
    for (int v = 0; v < no_of_nodes; v++)
      count += g_color[v] == gray_shade ? 1 : 0;
    tail[0] += count;
  }
}

FERRY_COMPUTE void bfs(ferry::ComputeContext &cc, ferry::Buffer<Node> &nodes,
                       ferry::Buffer<Edge> &edges, ferry::Buffer<int> &color,
                       ferry::Buffer<int> &cost, int &levels) {
  const int n = static_cast<int>(nodes.size());
  ferry::Buffer<int> next(n);
  ferry::Buffer<int> tail(1);
  tail[0] = 1; // the source alone is the first frontier
  int k = 0;   // BFS level index
  do {
    const int num_t = tail[0];
    tail[0] = 0;
    if (num_t == 0) // the frontier is empty
      break;
    const int frontier = k % 2 == 0 ? GRAY1 : GRAY0;
    const int gray = k % 2 == 0 ? GRAY0 : GRAY1;
    cc.dispatch(BFS_kernel, ferry::Range(n), nodes, edges, color, cost, next, frontier);
    cc.dispatch(BFS_commit, ferry::Range(n), color, cost, next, frontier, gray);
    cc.dispatch(countFrontier, ferry::Range(1), color, tail, n, gray);
    k++;
  } while (true);
  levels = k;
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  const int source = 0;
  // Undirected edges (i, i + 1) and (i, 7i + 3), each stored both ways.
  std::vector<std::vector<Edge>> adjacency(n);
  for (int i = 0; i < n; ++i) {
    const int w = 1 + i % 3;
    for (int j : {(i + 1) % n, (7 * i + 3) % n}) {
      adjacency[i].push_back({j, w});
      adjacency[j].push_back({i, w});
    }
  }
  int m = 0;
  for (const auto &a : adjacency)
    m += static_cast<int>(a.size());
  ferry::Buffer<Node> nodes(n);
  ferry::Buffer<Edge> edges(m);
  ferry::Buffer<int> color(n, WHITE), cost(n, INF);
  int e = 0;
  for (int i = 0; i < n; ++i) {
    nodes[i] = {e, static_cast<int>(adjacency[i].size())};
    for (const Edge &edge : adjacency[i])
      edges[e++] = edge;
  }
  cost[source] = 0;
  color[source] = GRAY1; // the frontier of level 0 has the shade of level -1
  int levels = 0;
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { bfs(cc, nodes, edges, color, cost, levels); });
  long long total = 0;
  int reached = 0, maxCost = 0;
  for (int i = 0; i < n; ++i)
    if (cost[i] != INF) {
      ++reached;
      total += cost[i];
      maxCost = cost[i] > maxCost ? cost[i] : maxCost;
    }
  std::printf("bfs: %d nodes, %d edges, %d levels, %d reached, max cost %d, total %lld\n",
              n, m, levels, reached, maxCost, total);
  printExact("cost", cost);
  printExact("color", color);
}
