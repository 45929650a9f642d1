// OMPDart evaluation benchmark "bfs" (Rodinia bfs, OpenMP offload), written
// anew in Ferry's dialect. Original: github.com/lmarzen/ompdart,
// evaluation/src/bfs/bfs.cpp (the authors' hand-mapped version;
// bfs_stripped.cpp is the unannotated input).
//
// main calls BFSGraph, which builds the graph, runs the level loop and
// writes the result, as in the original; here BFSGraph is the compute
// function, so every array is local to it, as the original's mallocs are.
// The two `#pragma omp target` + `parallel for` loops are the kernels
// bfsExpand and bfsUpdate over one work-item per node, with the original's
// benign races kept (frontier nodes of one level store the same cost; every
// updating node stores stop = true). `stop`, the original's `map(stop)`
// scalar, is a one-element bool buffer written false by the host before each
// level and read after it. Instead of reading graph1MW_6.txt, the graph is
// generated: node i has 1 + i % 4 edges, to (37 i + 101 j + 1) mod n, source
// 0; the result is printed instead of written to result.txt.
//
//   bfs NUM_THREADS NODES   (NUM_THREADS unused, as in the original)
//
// Bytes the ORIGINAL host code moves at 4096 nodes (10240 edges; the loop
// runs k = 13 times: 12 levels reach new nodes, the 13th finds none):
//   target data map(to: no_of_nodes)                        4 B
//     h_graph_mask, h_graph_visited, h_updating_graph_mask (bool) 3 x 4096
//     h_graph_nodes (Node, 2 ints)  4096*8 = 32768
//     h_graph_edges                10240*4 = 40960
//   map(tofrom: h_cost)             4096*4 = 16384, in and out
//   per pass `target map(stop)`: 1 B in and 1 B out, 13 times
//   in 7 + 13 = 20 (102404 + 13 = 102417 B), out 1 + 13 = 14 (16397 B).
// Whole-buffer optimum of this port: the first bfsExpand reads mask, nodes,
// edges, visited and cost, and bfsUpdate reads updating, all host-written:
// in 6 (102400 B; no_of_nodes is a kernel argument, not a copy). Each pass
// the host writes stop[0] and bfsUpdate writes it only where a node updates,
// so the host's false must reach the device: in 1 B x 13; the host reads it
// after each pass: out 1 B x 13. The host prints cost at the end: out 1
// (16384 B). Masks and visited are never read on the host. 26 dispatches.
//   in 19 (102413 B), out 14 (16397 B).
// suite-original: to_device 20 to_device_bytes 102417 from_device 14 from_device_bytes 16397
// ferry-test: args 4 4096
// ferry-test: to_device 19 to_device_bytes 102413 from_device 14 from_device_bytes 16397
// ferry-test: dispatches 26
#include "Print.h"

#include <cstdio>
#include <cstdlib>

// Structure to hold a node information
struct Node {
  int starting;
  int no_of_edges;
};

void Usage(int argc, char **argv) {
  (void)argc;
  fprintf(stderr, "Usage: %s <num_threads> <nodes>\n", argv[0]);
}

FERRY_KERNEL void bfsExpand(ferry::KernelContext kc, bool *h_graph_mask, const Node *h_graph_nodes,
                            const int *h_graph_edges, const bool *h_graph_visited,
                            int *h_cost, bool *h_updating_graph_mask) {
  const int tid = kc.x;
  if (h_graph_mask[tid] == true) {
    h_graph_mask[tid] = false;
    for (int i = h_graph_nodes[tid].starting;
         i < (h_graph_nodes[tid].no_of_edges + h_graph_nodes[tid].starting); i++) {
      int id = h_graph_edges[i];
      if (!h_graph_visited[id]) {
        h_cost[id] = h_cost[tid] + 1;
        h_updating_graph_mask[id] = true;
      }
    }
  }
}

FERRY_KERNEL void bfsUpdate(ferry::KernelContext kc, bool *h_updating_graph_mask,
                            bool *h_graph_mask, bool *h_graph_visited, bool *stop) {
  const int tid = kc.x;
  if (h_updating_graph_mask[tid] == true) {
    h_graph_mask[tid] = true;
    h_graph_visited[tid] = true;
    stop[0] = true;
    h_updating_graph_mask[tid] = false;
  }
}

FERRY_COMPUTE void BFSGraph(ferry::ComputeContext &cc, int argc, char **argv) {
  int no_of_nodes = 0;
  int edge_list_size = 0;

  if (argc != 3) {
    Usage(argc, argv);
    exit(0);
  }

  printf("Generating graph\n");
  no_of_nodes = atoi(argv[2]);
  if (no_of_nodes <= 0) {
    printf("Error: no nodes\n");
    return;
  }

  int source = 0;

  // allocate host memory
  ferry::Buffer<Node> h_graph_nodes(no_of_nodes);
  ferry::Buffer<bool> h_graph_mask(no_of_nodes);
  ferry::Buffer<bool> h_updating_graph_mask(no_of_nodes);
  ferry::Buffer<bool> h_graph_visited(no_of_nodes);

  // initalize the memory
  int start = 0;
  for (int i = 0; i < no_of_nodes; i++) {
    int edgeno = 1 + i % 4;
    h_graph_nodes[i].starting = start;
    h_graph_nodes[i].no_of_edges = edgeno;
    start += edgeno;
    h_graph_mask[i] = false;
    h_updating_graph_mask[i] = false;
    h_graph_visited[i] = false;
  }

  // set the source node as true in the mask
  h_graph_mask[source] = true;
  h_graph_visited[source] = true;

  edge_list_size = start;

  ferry::Buffer<int> h_graph_edges(edge_list_size);
  for (int i = 0; i < no_of_nodes; i++) {
    for (int j = 0; j < 1 + i % 4; j++)
      h_graph_edges[h_graph_nodes[i].starting + j] = (37 * i + 101 * j + 1) % no_of_nodes;
  }

  // allocate mem for the result on host side
  ferry::Buffer<int> h_cost(no_of_nodes);
  for (int i = 0; i < no_of_nodes; i++)
    h_cost[i] = -1;
  h_cost[source] = 0;

  printf("Start traversing the tree\n");

  int k = 0;
  ferry::Buffer<bool> stop(1);
  do {
    // if no thread changes this value then the loop stops
    stop[0] = false;

    cc.dispatch(bfsExpand, ferry::Range(no_of_nodes), h_graph_mask, h_graph_nodes, h_graph_edges,
                h_graph_visited, h_cost, h_updating_graph_mask);

    cc.dispatch(bfsUpdate, ferry::Range(no_of_nodes), h_updating_graph_mask, h_graph_mask,
                h_graph_visited, stop);
    k++;
  } while (stop[0]);

  // Store the result (printed here instead of result.txt)
  printf("%d nodes, %d edges, %d passes\n", no_of_nodes, edge_list_size, k);
  printExact("cost", h_cost);
}

int main(int argc, char **argv) {
  ferry::Accelerator acc;
  acc.compute([&](ferry::ComputeContext &cc) { BFSGraph(cc, argc, argv); });
}
