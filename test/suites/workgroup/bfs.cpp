// Parboil bfs (breadth-first search with block-level frontier queues),
// OpenCL base version, written anew in Ferry's dialect. Original:
// github.com/yuhc/gpu-parboil, benchmarks/bfs/src/opencl_base/kernel.cl
// (BFS_kernel), config.h and main.cpp.
//
// BFS_kernel is the original's: each work-item takes one node of the
// current frontier q1, marks it BLACK, relaxes its edges with atomicMin on
// g_cost, claims an improved neighbour with atomicExchange on g_color (so
// that one work-item only queues it) and appends it to its group's local
// queue with atomicAdd on the local tail; after a barrier, work-item 0
// reserves room in the global queue q2 with atomicAdd on `tail`, and after
// another barrier the group copies its local queue there. The original's
// three `__local int *` arguments (clSetKernelArg(..., sizeof(int), NULL),
// LOCAL_MEM_SIZE * sizeof(int), sizeof(int)) are ferry::LocalSpan<int>
// parameters bound by ferry::localSpan<int>(1 / LOCAL_MEM_SIZE / 1). Nodes
// and edges are buffers of the original's structs. The host is main.cpp's:
// the graph, colors and costs uploaded, tail = 1 and q1[0] = source, then
// per level: read the tail, write zero back, stop on an empty frontier,
// else dispatch ceil(num_t / 256) groups of min(num_t, 256) work-items
// with q1 and q2 swapped by the level's parity; finally the costs and
// colors read back.
//
// The graph is generated (no input file): N nodes, each with 1 to 5
// edges to pseudo-random nodes, all of cost 1 (Parboil's inputs carry
// costs; with unit costs every level's result is independent of the order
// in which work-items run, so the costs and colors are exactly
// reproducible; only the order within q2 is not, and nothing prints it).
// A host BFS checks the costs.
//
//   bfs [NODES]
//
// At N = 4096 the generator makes E = 12223 edges and the BFS from node 0
// has 14 non-empty frontiers (the program prints both), so L = 14
// dispatches and 15 reads of the tail.
// Bytes the ORIGINAL host code moves (Node and Edge are 8 bytes):
//   clEnqueueWriteBuffer d_graph_nodes 4096*8 = 32768, d_graph_edges
//   12223*8 = 97784, d_color 16384, d_cost 16384, tail 4, d_cost 4 (the
//   source's zero), d_q1 4; per loop trip (15): tail read 4, tail write 4
//   clEnqueueReadBuffer d_cost 16384, d_color 16384
//   in 7 + 15 = 22 (163332 + 60 = 163392 B), out 15 + 2 = 17 (60 + 32768 = 32828 B).
// Whole-buffer optimum for this port: nodes, edges, color, cost and q1 are
// host-written before the first dispatch: in 5 (32768 + 97784 + 3 * 16384
// = 179704 B). The tail: the host's zero goes in before each of the 14
// dispatches (14 x 4 B) and the kernel's count comes out after each (14 x
// 4 B); the 15th read follows the 14th copy out, and the 15th zero is never
// read on the device. q2 is never host-written, and the kernel reads only
// frontier entries written there by the level before: no copy. The host
// reads cost and color at the end: out 2 (32768 B).
//   in 19 (179760 B), out 16 (32824 B), 14 dispatches.
// suite-original: to_device 22 to_device_bytes 163392 from_device 17 from_device_bytes 32828
// ferry-test: args 4096
// optimum: to_device 19 to_device_bytes 179760 from_device 16 from_device_bytes 32824
// Ferry: q2, never host-written, is stored at indices that come from an
// atomic, which Ferry cannot bound; it is filled (zero) rather than
// copied: fills 1, no bytes on the bus. (to_device counts the fills with
// the copies.)
// ferry-test: to_device 20 to_device_bytes 196144 from_device 16 from_device_bytes 32824
// ferry-test: fills 1 fill_bytes 16384
// ferry-test: dispatches 14
#include "Print.h"

#include <cmath>
#include <cstdlib>
#include <vector>

#define MAX_THREADS_PER_BLOCK 256
#define LOCAL_MEM_SIZE 1600
#define INF 2147483647
#define UP_LIMIT 16677216
#define WHITE 16677217
#define GRAY 16677218
#define GRAY0 16677219
#define GRAY1 16677220
#define BLACK 16677221

struct Node {
  int x; // first edge
  int y; // number of edges
};
struct Edge {
  int x; // destination
  int y; // cost
};

FERRY_KERNEL void BFS_kernel(ferry::KernelContext kc, const int *q1, int *q2,
                             const Node *g_graph_nodes, const Edge *g_graph_edges, int *g_color,
                             int *g_cost, int *tail, int no_of_nodes, int gray_shade, int k,
                             ferry::LocalSpan<int> local_q_tail, ferry::LocalSpan<int> local_q,
                             ferry::LocalSpan<int> shift) {
  (void)k;
  if (kc.localX == 0)
    local_q_tail[0] = 0;
  kc.barrier();

  // Propagate, and add the new frontier to the group's queue.
  int tid = kc.x;
  if (tid < no_of_nodes) {
    int pid = q1[tid];
    g_color[pid] = BLACK;
    int cur_cost = g_cost[pid];
    Node cur_node = g_graph_nodes[pid];

    for (int i = cur_node.x; i < cur_node.y + cur_node.x; i++) {
      Edge cur_edge = g_graph_edges[i];
      int id = cur_edge.x;
      int cost = cur_edge.y;
      cost += cur_cost;
      int orig_cost = ferry::atomicMin(&g_cost[id], cost);
      if (orig_cost > cost) {
        if (g_color[id] > UP_LIMIT) {
          int old_color = ferry::atomicExchange(&g_color[id], gray_shade);
          // Only the work-item that changed the color queues the node.
          if (old_color != gray_shade) {
            int index = ferry::atomicAdd(&local_q_tail[0], 1);
            local_q[index] = id;
          }
        }
      }
    }
  }
  kc.barrier();

  // The group's queue's place in the level's queue.
  if (kc.localX == 0) {
    int tot_sum = local_q_tail[0];
    shift[0] = ferry::atomicAdd(&tail[0], tot_sum);
  }
  kc.barrier();

  int local_shift = kc.localX;
  while (local_shift < local_q_tail[0]) {
    q2[shift[0] + local_shift] = local_q[local_shift];
    local_shift += kc.localSizeX;
  }
}

FERRY_COMPUTE void runGPU(ferry::ComputeContext &cc, const std::vector<Node> &h_graph_nodes,
                          const std::vector<Edge> &h_graph_edges, int source,
                          std::vector<int> &h_cost, std::vector<int> &color) {
  const int num_of_nodes = static_cast<int>(h_graph_nodes.size());
  const int num_of_edges = static_cast<int>(h_graph_edges.size());

  ferry::Buffer<Node> d_graph_nodes(num_of_nodes);
  std::copy(h_graph_nodes.begin(), h_graph_nodes.end(), d_graph_nodes.begin());
  ferry::Buffer<Edge> d_graph_edges(num_of_edges);
  std::copy(h_graph_edges.begin(), h_graph_edges.end(), d_graph_edges.begin());

  ferry::Buffer<int> d_color(num_of_nodes), d_cost(num_of_nodes), d_q1(num_of_nodes),
      d_q2(num_of_nodes), tail(1);
  std::copy(color.begin(), color.end(), d_color.begin());
  std::copy(h_cost.begin(), h_cost.end(), d_cost.begin());

  std::printf("Starting GPU kernel\n");
  tail[0] = 1;        // h_top
  d_cost[source] = 0; // the original writes `zero` at the source's cost
  d_q1[0] = source;

  int num_t;
  int k = 0;
  do {
    num_t = tail[0];
    tail[0] = 0;
    if (num_t == 0)
      break;
    int num_of_blocks = static_cast<int>(std::ceil(num_t / static_cast<double>(MAX_THREADS_PER_BLOCK)));
    int num_of_threads_per_block = num_t > MAX_THREADS_PER_BLOCK ? MAX_THREADS_PER_BLOCK : num_t;
    ferry::Range grid = ferry::Range(num_of_blocks * num_of_threads_per_block)
                            .local(num_of_threads_per_block);
    std::printf("level %d: frontier %d, %d group(s) of %d\n", k, num_t, num_of_blocks,
                num_of_threads_per_block);
    if (k % 2 == 0) {
      int gray = GRAY0;
      cc.dispatch(BFS_kernel, grid, d_q1, d_q2, d_graph_nodes, d_graph_edges, d_color, d_cost,
                  tail, num_t, gray, k, ferry::localSpan<int>(1),
                  ferry::localSpan<int>(LOCAL_MEM_SIZE), ferry::localSpan<int>(1));
    } else {
      int gray = GRAY1;
      cc.dispatch(BFS_kernel, grid, d_q2, d_q1, d_graph_nodes, d_graph_edges, d_color, d_cost,
                  tail, num_t, gray, k, ferry::localSpan<int>(1),
                  ferry::localSpan<int>(LOCAL_MEM_SIZE), ferry::localSpan<int>(1));
    }
    k++;
  } while (true);
  std::printf("GPU kernel done after %d levels\n", k);

  std::copy(d_cost.begin(), d_cost.end(), h_cost.begin());
  std::copy(d_color.begin(), d_color.end(), color.begin());
}

int main(int argc, char **argv) {
  const int num_of_nodes = argc > 1 ? std::atoi(argv[1]) : 4096;
  if (num_of_nodes < 1) {
    std::printf("at least one node\n");
    return 1;
  }
  // The graph: 1 to 5 edges from each node, to pseudo-random nodes, cost 1.
  unsigned seed = 12345;
  auto next = [&seed]() {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) & 0x7fff;
  };
  std::vector<Node> nodes(num_of_nodes);
  std::vector<Edge> edges;
  for (int i = 0; i < num_of_nodes; i++) {
    nodes[i].x = static_cast<int>(edges.size());
    nodes[i].y = 1 + static_cast<int>(next() % 5);
    for (int e = 0; e < nodes[i].y; e++)
      edges.push_back(Edge{static_cast<int>((next() * 32768u + next()) % num_of_nodes), 1});
  }
  const int source = 0;
  std::printf("%d nodes, %zu edges, source %d\n", num_of_nodes, edges.size(), source);

  std::vector<int> color(num_of_nodes, WHITE);
  std::vector<int> h_cost(num_of_nodes, INF);
  h_cost[source] = 0;

  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { runGPU(cc, nodes, edges, source, h_cost, color); });

  long long check = 0;
  int reached = 0, deepest = 0, black = 0, white = 0;
  for (int j = 0; j < num_of_nodes; j++) {
    check = (check * 31 + h_cost[j]) % 1000000007;
    if (h_cost[j] != INF) {
      reached++;
      deepest = h_cost[j] > deepest ? h_cost[j] : deepest;
    }
    black += color[j] == BLACK;
    white += color[j] == WHITE;
  }
  std::printf("reached %d, deepest %d, black %d, white %d, cost check=%lld\n", reached, deepest,
              black, white, check);

  // A plain queue BFS on the host.
  std::vector<int> expect(num_of_nodes, INF), queue(1, source);
  expect[source] = 0;
  for (std::size_t head = 0; head < queue.size(); head++) {
    const int u = queue[head];
    for (int i = nodes[u].x; i < nodes[u].x + nodes[u].y; i++)
      if (expect[edges[i].x] == INF) {
        expect[edges[i].x] = expect[u] + 1;
        queue.push_back(edges[i].x);
      }
  }
  std::printf("costs match the host BFS: %s\n", expect == h_cost ? "yes" : "no");
}
