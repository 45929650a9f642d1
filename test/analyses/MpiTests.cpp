// MPI calls as host events (issue 22): what a send reads and a receive
// writes, over exactly the count given, against the real <mpi.h> (Open MPI;
// its include path comes from `mpicxx --showme:compile` at configure time).

#include "TestSupport.h"

#include "analyses/paths/StaticRoots.h"

#include "llvm/ADT/StringRef.h"

#include <catch2/catch.hpp>

#include <set>

using namespace ferry;
using namespace ferry::test;

namespace {
std::vector<std::string> mpiFlags() {
  std::vector<std::string> Flags;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  llvm::StringRef(FERRY_TEST_MPI_FLAGS).split(Parts, ';', -1, false);
  for (llvm::StringRef P : Parts)
    Flags.push_back(P.str());
  return Flags;
}

const char *Prelude = R"cpp(
#include <ferry/ferry.hpp>
#include <mpi.h>
#include <utility>
using FB = ferry::Buffer<float>;
struct Cell { float v[3]; };
FERRY_KERNEL void relax(ferry::KernelContext kc, const float *in, float *out) {
  out[kc.x] = in[kc.x];
}
)cpp";

std::string withPrelude(const char *Body) { return std::string(Prelude) + Body; }

std::vector<std::string> at(Source &S, const std::string &Function,
                            const std::string &Marker) {
  std::vector<std::string> Out;
  for (const HostEvent &E : S.eventsAt(Function, Marker))
    Out.push_back(eventName(E) + " " + S.targets(E) + " " + rangeText(E));
  return Out;
}

using Lines = std::vector<std::string>;
} // namespace

TEST_CASE("mpi: a halo exchange through a pointer kept from data()", "[mpi]") {
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void halo(ferry::ComputeContext &cc, FB &a, FB &b, int N,
                        int rows, int up, int down) {
  FB *u = &a, *v = &b;
  for (int s = 0; s < 4; ++s) {
    cc.dispatch(relax, ferry::Range(N * rows), *u, *v);
    std::swap(u, v);
    float *p = u->data();
    MPI_Sendrecv(p + N, N, MPI_FLOAT, up, 0, p, N, MPI_FLOAT, down, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);             // @top
    MPI_Sendrecv(p + (rows - 2) * N, N, MPI_FLOAT, down, 1,
                 p + (rows - 1) * N, N, MPI_FLOAT, up, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);             // @bottom
  }
}
)cpp"),
           mpiFlags());
  // One buffer sent from and received into: its send read first, then its
  // receive written; both name the buffer u points to before the call.
  std::vector<HostEvent> Top = S.eventsAt("halo", "@top");
  CHECK(at(S, "halo", "@top") ==
        Lines{"read a|b from N count N",
              "write a|b from 0 count N, covers if full"});
  REQUIRE(Top.size() == 2);
  for (const HostEvent &E : Top) {
    CHECK(E.Spelling == "*u");
    CHECK_FALSE(E.Escapes);
    CHECK_FALSE(E.Range->Covers);
  }
  CHECK(Top[0].What == "sent by MPI_Sendrecv()");
  CHECK(Top[1].What == "received by MPI_Sendrecv()");
  // The pointer is used only where Ferry sees it: its binding touches
  // nothing.
  std::vector<HostEvent> Bind = S.eventsAt("halo", "float *p = u->data();");
  REQUIRE(Bind.size() == 1);
  CHECK(Bind[0].OnlyBinds);
  CHECK(at(S, "halo", "@bottom") ==
        Lines{"read a|b from (rows - 2) * N count N",
              "write a|b from (rows - 1) * N count N, covers if full"});
  // The whole sweep loop as the statement: N, handed to the dispatch (a
  // forwarding reference, but the kernel gets its value), still means N
  // before the loop; a receive inside a loop that may not run covers
  // nothing.
  CHECK(at(S, "halo", "for (int s") ==
        Lines{"escape a|b whole", "read a|b from N count N",
              "write a|b from 0 count N",
              "read a|b from (rows - 2) * N count N",
              "write a|b from (rows - 1) * N count N"});
}

TEST_CASE("mpi: sends, receives, collectives and datatypes", "[mpi]") {
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void forms(ferry::ComputeContext &cc, FB &a, FB &b,
                         ferry::Buffer<int> &ints, ferry::Buffer<Cell> &cells,
                         FB *u, int off, int n, MPI_Datatype t) {
  MPI_Request req;
  MPI_Irecv(u->data() + off, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, &req);  // @irecv
  MPI_Send(a.data() + off, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);           // @send
  MPI_Recv(&b[off], n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // @recv
  MPI_Isend(a.begin(), 3, MPI_FLOAT, 1, 0, MPI_COMM_WORLD, &req);         // @isend
  MPI_Bcast(ints.data(), 4, MPI_INT, 0, MPI_COMM_WORLD);                  // @bcast
  MPI_Allreduce(a.data(), b.data(), n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); // @allreduce
  MPI_Allreduce(MPI_IN_PLACE, b.data(), n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); // @inplace
  MPI_Reduce(a.data(), b.data(), n, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD); // @reduce
  MPI_Recv(ints.data(), 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // @bytes
  MPI_Recv(ints.data(), 6, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // @oddbytes
  MPI_Recv(cells.data(), n, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);  // @unknown
  MPI_Send(cells.data(), n, t, 0, 0, MPI_COMM_WORLD);                     // @unknownsend
  MPI_Recv(a.data(), n, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // @mismatch
  MPI_Sendrecv_replace(a.data() + off, n, MPI_FLOAT, 1, 0, 1, 0, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE);                                 // @replace
  MPI_Gather(a.data(), n, MPI_FLOAT, b.data(), n, MPI_FLOAT, 0, MPI_COMM_WORLD); // @gather
  MPI_Scatter(a.data(), n, MPI_FLOAT, b.data() + off, n, MPI_FLOAT, 0, MPI_COMM_WORLD); // @scatter
  if (n > 0) MPI_Allreduce(a.data(), b.data(), n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); // @branch
  MPI_Send(a.data(), n++, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);               // @sideeffect
}
)cpp"),
           mpiFlags());
  CHECK(at(S, "forms", "@send") == Lines{"read a from off count n"});
  // A point-to-point receive covers its range only if the message fills it.
  CHECK(at(S, "forms", "@recv") ==
        Lines{"write b from off count n, covers if full"});
  CHECK(at(S, "forms", "@isend") == Lines{"read a from 0 count 3"});
  CHECK(at(S, "forms", "@irecv") ==
        Lines{"write *u from off count n, covers if full"});
  // The root reads, the others write: both.
  CHECK(at(S, "forms", "@bcast") == Lines{"read-write ints from 0 count 4"});
  // A collective's count is the same on every rank: it covers.
  CHECK(at(S, "forms", "@allreduce") ==
        Lines{"read a from 0 count n", "write b from 0 count n, covers"});
  CHECK(at(S, "forms", "@inplace") == Lines{"read-write b from 0 count n"});
  CHECK(at(S, "forms", "@reduce") ==
        Lines{"read a from 0 count n", "write b from 0 count n"});
  // MPI_BYTE counts bytes: 8 are two ints; 6 end inside the second.
  CHECK(at(S, "forms", "@bytes") ==
        Lines{"write ints from 0 count 2, covers if full"});
  CHECK(at(S, "forms", "@oddbytes") == Lines{"write ints from 0 count 2"});
  // A datatype Ferry cannot size, or one that is not the element type:
  // any element may be read and changed.
  CHECK(at(S, "forms", "@unknown") == Lines{"read-write cells whole"});
  CHECK(at(S, "forms", "@unknownsend") == Lines{"read cells whole"});
  CHECK(at(S, "forms", "@mismatch") == Lines{"read-write a whole"});
  CHECK(at(S, "forms", "@replace") ==
        Lines{"read-write a from off count n"});
  // A gather's receive holds a count per rank: how many, only the run knows.
  CHECK(at(S, "forms", "@gather") ==
        Lines{"read a from 0 count n", "write b whole"});
  CHECK(at(S, "forms", "@scatter") ==
        Lines{"read a whole", "write b from off count n, covers"});
  CHECK(at(S, "forms", "@branch") ==
        Lines{"read a from 0 count n", "write b from 0 count n"});
  CHECK(at(S, "forms", "@sideeffect") == Lines{"read a whole"});
  for (const HostEvent &E : S.events("forms"))
    CHECK_FALSE(E.Escapes);
}

TEST_CASE("mpi: only mpi.h's functions are MPI's", "[mpi]") {
  // Not from mpi.h: functions like any other Ferry cannot see.
  Source S(std::string(R"cpp(
#include <ferry/ferry.hpp>
using FB = ferry::Buffer<float>;
int MPI_Send(const void *buf, int count, int type, int dest, int tag, int comm);
int MPI_Recv(void *buf, int count, int type, int source, int tag, int comm,
             void *status);
FERRY_COMPUTE void f(ferry::ComputeContext &cc, FB &a, FB &b, int n) { // @0
  MPI_Send(a.data(), n, 1, 1, 0, 0);   // @send
  MPI_Recv(b.data(), n, 1, 0, 0, 0, nullptr); // @recv
}
)cpp"));
  CHECK(at(S, "f", "@send") == Lines{"read a whole"});
  CHECK(at(S, "f", "@recv") == Lines{"escape b whole"});
}

TEST_CASE("mpi: a halo exchange under an if names the pointer's buffer",
          "[mpi]") {
  // The sample's form (samples/heat_mpi): the edge ranks skip the call. A
  // line before the call, inside the if (the statement the planner places
  // it before), names the buffer p points into as `*u`, as it does when the
  // call is a statement of p's own block.
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void halo(ferry::ComputeContext &cc, FB &a, FB &b, int N,
                        int rows, int up, int down) {
  FB *u = &a, *v = &b;
  for (int s = 0; s < 4; ++s) {
    float *p = u->data();
    if (up != MPI_PROC_NULL)
      MPI_Sendrecv(p + N, N, MPI_FLOAT, up, 0, p, N, MPI_FLOAT, up, 1, // @top
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (down != MPI_PROC_NULL) {
      MPI_Sendrecv(p + rows * N, N, MPI_FLOAT, down, 1, // @bottom
                   p + (rows + 1) * N, N, MPI_FLOAT, down, 0, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    }
    cc.dispatch(relax, ferry::Range(N * rows), *u, *v);
    std::swap(u, v);
  }
}
)cpp"),
           mpiFlags());
  std::vector<std::string> Lines;
  for (const char *Marker : {"@top", "@bottom"}) {
    std::vector<HostEvent> Events = S.eventsAt("halo", Marker, true);
    REQUIRE(Events.size() == 2);
    for (const HostEvent &E : Events) {
      CHECK(E.Spelling == "*u");
      Lines.push_back(eventName(E) + " " + S.targets(E) + " " + rangeText(E));
    }
  }
  CHECK(Lines == std::vector<std::string>{
                     "read a|b from N count N",
                     "write a|b from 0 count N, covers if full",
                     "read a|b from rows * N count N",
                     "write a|b from (rows + 1) * N count N, covers if full"});
}

TEST_CASE("mpi: a block around the call that re-points u names nothing",
          "[mpi]") {
  // `u` changes inside the statement that holds the call (here, on an
  // earlier trip of the loop around it): before the call `*u` may name
  // another buffer than the one p points into.
  Source S(withPrelude(R"cpp(
FERRY_COMPUTE void halo(ferry::ComputeContext &cc, FB &a, FB &b, int N) {
  FB *u = &a;
  float *p = u->data();
  for (int s = 0; s < 4; ++s) {
    MPI_Send(p + N, N, MPI_FLOAT, 0, 0, MPI_COMM_WORLD);            // @send
    u = &b;
  }
  cc.dispatch(relax, ferry::Range(N), *u, b);
}
)cpp"),
           mpiFlags());
  std::vector<HostEvent> Events = S.eventsAt("halo", "@send");
  REQUIRE(Events.size() == 1);
  CHECK(Events[0].Spelling == "");
}

TEST_CASE("mpi: a helper that calls MPI reaches no global buffer", "[mpi]") {
  // MPI's functions touch only the buffers they are given: a helper that
  // calls them is no call Ferry cannot see, so it reaches the global
  // buffers its own body names (none here), not every one of them.
  Source S(withPrelude(R"cpp(
FB weights(64);
void exchange(FB &u, int n, int peer) {
  MPI_Sendrecv(u.data() + n, n, MPI_FLOAT, peer, 0, u.data(), n, MPI_FLOAT,
               peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
void opaque(float *p);
void hidden(FB &u) { opaque(u.data()); }
FERRY_COMPUTE void step(ferry::ComputeContext &cc, FB &a, int n, int peer) {
  cc.dispatch(relax, ferry::Range(n), weights, a);
  exchange(a, n, peer);                                             // @mpi
  hidden(a);                                                        // @hidden
}
)cpp"),
           mpiFlags());
  GlobalReachCache Globals;
  const GlobalReach &Mpi = Globals.of(S.function("exchange"));
  CHECK_FALSE(Mpi.Unseen);
  CHECK(Mpi.Named.empty());
  // A function Ferry cannot see still reaches any global buffer.
  CHECK(Globals.of(S.function("hidden")).Unseen);
  // So the call reads and writes `a` (the helper's summary) and leaves
  // `weights` alone; the other call may touch both.
  for (const HostEvent &E : S.eventsAt("step", "@mpi"))
    CHECK(S.targets(E) == "a");
  std::set<std::string> Hidden;
  for (const HostEvent &E : S.eventsAt("step", "@hidden"))
    Hidden.insert(S.targets(E));
  CHECK(Hidden == std::set<std::string>{"a", "weights"});
}
