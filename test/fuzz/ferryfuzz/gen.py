"""Random Ferry programs in the contract's dialect (docs/fuzz.md: grammar).

A program is a tree of statement nodes, not text, so that the reducer can drop
statements and branches and print the program again. Every program is
self-contained (its names carry its tag, `p7_...`), integer-only, race-free
and deterministic, so the reference execution is an exact oracle:

* values stay in 0..0xFFFF (every arithmetic result is masked), so nothing
  overflows;
* a work-item writes only its own element; a buffer read at another element
  (a neighbour) is never one the same dispatch writes, even through aliases;
* loops are bounded by small parameters (possibly zero) and constants;
  `continue` appears only in `for` loops with an increment, so every loop ends.

The same (seed, index) always gives the same program.
"""

import random
import re

MASK = "0xFFFF"


# --------------------------------------------------------------------------
# Statement nodes


class Node:
    """A statement. `removable`: the reducer may delete it."""

    removable = True

    def lines(self, ind):
        raise NotImplementedError

    def blocks(self):
        """Statement lists nested in this node (for the reducer)."""
        return []

    def simpler(self):
        """Replacements the reducer may try instead of deleting the node."""
        return []


class Line(Node):
    def __init__(self, text, removable=True):
        self.text = text
        self.removable = removable

    def lines(self, ind):
        return [ind + t for t in self.text.split("\n")]


class Compound(Node):
    """Header text, nested blocks and separators, e.g.
    ["if (c) {", then, "} else {", else, "}"]."""

    def __init__(self, parts, kind="block", loopvar=None, removable=True):
        self.parts = parts
        self.kind = kind
        self.loopvar = loopvar
        self.removable = removable

    def lines(self, ind):
        out = []
        for p in self.parts:
            if isinstance(p, str):
                out.append(ind + p)
            else:
                for s in p:
                    out.extend(s.lines(ind + "  "))
        return out

    def blocks(self):
        return [p for p in self.parts if not isinstance(p, str)]

    def simpler(self):
        alts = []
        if self.kind == "if":
            # Keep one branch, in braces so that its declarations stay scoped.
            for b in self.blocks():
                alts.append(Compound(["{", b, "}"]))
        elif self.kind in ("for", "while", "do"):
            body = "\n".join(l for s in self.blocks()[0] for l in s.lines(""))
            if ("break" not in body and "continue" not in body and
                    (self.loopvar is None or self.loopvar not in body)):
                alts.append(Compound(["{", self.blocks()[0], "}"]))
        return alts


class Func:
    """A function: text before the body, the body, and the closing text."""

    def __init__(self, name, head, body, tail="}", kind="host"):
        self.name = name
        self.head = head
        self.body = body
        self.tail = tail
        self.kind = kind

    def lines(self):
        out = self.head.split("\n")
        for s in self.body:
            out.extend(s.lines("  "))
        out.extend(self.tail.split("\n"))
        return out


# --------------------------------------------------------------------------
# Buffer views: the expressions through which host code names a buffer.


class View:
    """`ref`: an lvalue of type Buffer<int>; `ptr`: a Buffer<int>* to it.
    `may`: the program's buffers it may denote. Two views of one `pair` on
    different sides never denote the same buffer at the same time."""

    def __init__(self, ref, ptr, may, pair=None, side=0, const=False):
        self.ref, self.ptr, self.may = ref, ptr, frozenset(may)
        self.pair, self.side, self.const = pair, side, const

    def member(self, m):
        if self.ref.startswith("(*") and self.ref.endswith(")"):
            return "%s->%s" % (self.ref[2:-1], m)
        return "%s.%s" % (self.ref, m)

    def at(self, i):
        return "%s[%s]" % (self.ref, i)


def distinct(u, v):
    if u.pair is not None and u.pair == v.pair:
        return u.side != v.side
    return not (u.may & v.may)


class Scope:
    """What the generator may use at a point of a function body."""

    def __init__(self, views, ints, size, fn):
        self.views = list(views)
        self.ints = list(ints)  # int expressions in 0..small
        self.size = size        # an int expression for the buffers' size
        self.fn = fn            # FnCtx
        self.loop = None        # None, "for" (continue allowed) or "loop"
        self.depth = 0
        self.pairs = []         # (kind, names...) that may be swapped/flipped

    def child(self, loop=None):
        s = Scope(self.views, self.ints, self.size, self.fn)
        s.loop = loop if loop else self.loop
        s.depth = self.depth + 1
        s.pairs = list(self.pairs)
        return s


class FnCtx:
    def __init__(self, kind, trips, readonly=False, void=True):
        self.kind = kind            # "compute", "sub", "wrapper", "helper"
        self.trips = trips          # int parameters that bound loops
        self.readonly = readonly    # only reads (a helper that only looks)
        self.void = void            # `return;` is allowed
        self.acc = None             # name of the int accumulator, if any


# --------------------------------------------------------------------------
# Kernels


class Kernel:
    def __init__(self, name, params, dims, guard, rangekind, nscalars, text):
        self.name = name
        self.params = params        # roles, one per buffer parameter
        self.dims = dims
        self.guard = guard
        self.rangekind = rangekind  # "full" or "part"
        self.nscalars = nscalars
        self.text = text


READS = ("in", "nbr", "inout", "acc", "red")
# Forms whose compute function is a member function of a class owning the buffers.
CLASS_FORMS = ("members", "objects", "nested")
WRITES = ("out", "inout", "acc", "red")


class Gen:
    def __init__(self, seed, index, avoid=(), form=None):
        self.avoid = set(avoid)  # forms left out (names in docs/fuzz.md)
        self.forced_form = form  # a program form every program takes, or None
        self.r = random.Random("ferry-fuzz:%s:%s" % (seed, index))
        self.seed, self.index_ = seed, index
        self.tag = "p%d" % index
        self.counter = 0
        self.kernels = []      # Kernel
        self.kfuncs = []       # device helpers (text)
        self.hfuncs = []       # Func: host helpers, wrappers, sub-computes
        self.globals = []      # text lines (macros, function pointers)
        self.macro = None
        # "params" (buffers as parameters), "members" (a class owning its
        # buffers, the compute a member function) or "vector" (the buffers
        # in a std::vector<ferry::Buffer<int>>, named by element access).
        # "objects" (a class owning its buffers privately, its objects
        # stepped from main's compute lambda) and "nested" (the same with two
        # of them in a member struct, `grid_.cur`, `grid_.next`) too.
        self.form = "params"
        self.mfuncs = []       # Func: member helpers of the "members" class
        self.mref = {}         # buffer -> how a member function names it
        self.types = []        # text before the host helpers (structs, classes)
        self.late = []         # Func: after the compute function (they name its class)
        self.objfuncs = {}     # kind -> name of a helper given an object
        # The two-source layout (render_split): the class with declarations
        # only (for the header), the compute's out-of-class head, and the
        # member functions defined in the other source. Drawn apart, so
        # that a program is the same program in either layout.
        self.split_types = None
        self.split_head = None
        self.split_defs = []
        self.sr = random.Random("ferry-fuzz-split:%s:%s" % (seed, index))
        # The object forms added after the campaign of 4ef2b9c (`objvirtual`,
        # `objfunction`, `objvloop`) draw from their own stream, so that the
        # programs without them stay what the same seed gave before.
        self.xr = random.Random("ferry-fuzz-objx:%s:%s" % (seed, index))
        # And those added after the callable-reach stop (`objextra`,
        # `objfunctor`, `objfnarg`) from another.
        self.yr = random.Random("ferry-fuzz-objy:%s:%s" % (seed, index))
        self.extra = False
        self.bumpkind = "lambda"
        self.hidden = []       # text: kernels and classes only the other source sees
        self.after_class = []  # text: types that need the compute's class complete
        self.virtual = self.vloop = False
        self.stepfn = None
        self.bumpfn = None

    # -- small utilities --------------------------------------------------
    def fresh(self, stem):
        self.counter += 1
        return "%s_%s%d" % (self.tag, stem, self.counter)

    def pick(self, weighted):
        total = sum(w for w, _ in weighted)
        x = self.r.uniform(0, total)
        for w, v in weighted:
            x -= w
            if x <= 0:
                return v
        return weighted[-1][1]

    def chance(self, p):
        return self.r.random() < p

    def small(self, sc):
        """An int expression in 0..a few."""
        if sc.ints and self.chance(0.6):
            return self.r.choice(sc.ints)
        return str(self.r.randint(0, 7))

    def index(self, sc):
        """An element index expression, always in range."""
        c = self.r.randint(0, 2)
        if c == 0:
            return str(self.r.randint(0, self.N - 1))
        if c == 1:
            return "(%s) %% %s" % (self.small(sc), sc.size)
        return "%s - 1" % sc.size

    def value(self, sc):
        """An int expression in 0..0xFFFF (it may read buffers)."""
        c = self.r.randint(0, 3)
        if c == 0 and sc.views:
            v = self.r.choice(sc.views)
            return "(%s * 3 + %s) & %s" % (v.at(self.index(sc)), self.small(sc), MASK)
        if c == 1:
            return "(%s * 5 + %d) & %s" % (self.small(sc), self.r.randint(0, 99), MASK)
        return str(self.r.randint(0, 999))

    def prn(self, what, expr):
        return Line('std::printf("[%s] %s %%d\\n", %s);' % (self.tag, what, expr))

    # -- kernels ------------------------------------------------------------
    def make_kernel(self, nbuf, dims, want_part):
        name = self.fresh("k")
        roles = []
        for i in range(nbuf):
            roles.append(self.pick([(3, "in"), (2, "nbr"), (3, "out"), (2, "inout"),
                                    (1, "acc")]))
        if not any(r in WRITES for r in roles):
            roles[self.r.randrange(nbuf)] = self.pick([(2, "out"), (1, "inout"), (1, "acc")])
        if "acc" in roles and not any(r in ("in", "nbr") for r in roles):
            roles.append("nbr")
        rangekind = "part" if (want_part and dims == 1) else "full"
        guard = self.pick([(3, "none"), (3, "max"), (2, "lim"), (1, "even")])
        if dims >= 2 and guard in ("lim", "even"):
            guard = "max"
        nsc = 1 + (1 if guard == "lim" else 0)
        idx = {1: "kc.x", 2: "kc.y * kc.maxX + kc.x",
               3: "(kc.z * kc.maxY + kc.y) * kc.maxX + kc.x"}[dims]
        if dims == 3:
            nb = "(kc.z * kc.maxY + kc.y) * kc.maxX + (kc.x + %d) %% kc.maxX" % self.r.randint(1, 2)
        elif dims == 1:
            nb = "(kc.x + %d) %% kc.maxX" % self.r.randint(1, 3)
        else:
            nb = "((kc.y + 1) %% kc.maxY) * kc.maxX + (kc.x + %d) %% kc.maxX" % self.r.randint(0, 2)
        # Helpers the kernel calls (the kernel-reachable graph).
        mix = None
        if self.chance(0.3):
            mix = self.fresh("mix")
            self.kfuncs.append("static int %s(int u, int v) {\n  return (u * 3 + v + 1) & %s;\n}"
                               % (mix, MASK))
        put = None
        if self.chance(0.25):
            put = self.fresh("put")
            self.kfuncs.append("static void %s(int *o, int i, int v) {\n  o[i] = v;\n}" % put)
        get = None
        if self.chance(0.25):
            get = self.fresh("get")
            self.kfuncs.append("static int %s(const int *v, int i) {\n  return v[i];\n}" % get)

        params, body = [], []
        names = ["b%d" % i for i in range(len(roles))]
        full = guard in ("none", "max") and rangekind == "full"
        for nm, role in zip(names, roles):
            ann = ""
            if role in ("in", "nbr"):
                const = self.chance(0.6)
                if self.chance(0.3):
                    ann = "FERRY_RO "
                params.append("%s%sint *%s" % (ann, "const " if const else "", nm))
            else:
                if role == "out" and full and self.chance(0.3):
                    ann = "FERRY_WO "
                elif self.chance(0.2):
                    ann = "FERRY_RW " if role != "out" or self.chance(0.5) else ""
                params.append("%sint *%s" % (ann, nm))
        params.append("int s0")
        if guard == "lim":
            params.append("int lim")

        def rd(nm, at):
            return "%s(%s, %s)" % (get, nm, at) if get and self.chance(0.5) else "%s[%s]" % (nm, at)

        reads = []
        for nm, role in zip(names, roles):
            if role == "in" or role == "inout":
                reads.append(rd(nm, "i"))
            elif role == "nbr":
                reads.append(rd(nm, "j"))
        body.append("const int i = %s;" % idx)
        if "nbr" in roles:
            body.append("const int j = %s;" % nb)
        terms = reads + ["s0", "kc.x"]
        self.r.shuffle(terms)
        expr = " + ".join(terms)
        if mix:
            expr = "%s(%s, %s)" % (mix, terms[0], " + ".join(terms[1:]))
        expr = "(%s) & %s" % (expr, MASK)
        body.append("int v = %s;" % expr)
        for nm, role in zip(names, roles):
            if role == "out":
                if "ptrstore" not in self.avoid and self.chance(0.2):
                    # `ptrstore`: a store through a local pointer.
                    p = "p%d" % len(body)
                    body.append("int *%s = %s + i;" % (p, nm))
                    if self.chance(0.5):
                        body.append("if (i < kc.maxX * kc.maxY * kc.maxZ)")
                        body.append("  *%s = v;" % p)
                    else:
                        body.append("*%s = v;" % p)
                elif put and self.chance(0.5):
                    body.append("%s(%s, i, v);" % (put, nm))
                else:
                    body.append("%s[i] = v;" % nm)
                body.append("v = (v * 7 + 1) & %s;" % MASK)
            elif role == "inout":
                body.append("%s[i] = (%s[i] * 5 + v) & %s;" % (nm, nm, MASK))
            elif role == "acc":
                src = [n for n, r in zip(names, roles) if r in ("in", "nbr")][0]
                src_at = "i" if roles[names.index(src)] == "in" else "(j + t) % kc.maxX"
                if dims >= 2 and src_at != "i":
                    src_at = "(j + t) % (kc.maxX * kc.maxY)"
                body.append("%s[i] = 0;" % nm)
                body.append("for (int t = 0; t < %d; ++t)" % self.r.randint(1, 4))
                body.append("  %s[i] = (%s[i] + %s[%s] + t) & %s;" % (nm, nm, src, src_at, MASK))
        if guard == "none":
            inner = body
        else:
            cond = {"max": "kc.x < kc.maxX", "lim": "kc.x < lim", "even": "kc.x % 2 == 0"}[guard]
            inner = ["if (%s) {" % cond] + ["  " + b for b in body] + ["}"]
        text = "FERRY_KERNEL void %s(ferry::KernelContext kc, %s) {\n%s\n}" % (
            name, ", ".join(params), "\n".join("  " + b for b in inner))
        k = Kernel(name, roles, dims, guard, rangekind, nsc, text)
        self.kernels.append(k)
        return k

    def make_column_kernel(self):
        """`columns`: a FERRY_WO output where each of W work-items writes a
        column of H elements (Range(W) covers fewer work-items than the
        buffer has elements), optionally reading its own elements of an input."""
        name = self.fresh("k")
        roles = ["out"] + (["in"] if self.chance(0.5) else [])
        params = ["FERRY_WO int *b0"]
        rd = ""
        if len(roles) > 1:
            params.append("%sint *b1" % self.r.choice(["const ", "FERRY_RO const ", "FERRY_RO "]))
            rd = "b1[i] * %d + " % self.r.randint(1, 5)
        params.append("int s0")
        body = ["for (int r = 0; r < %d; ++r) {" % self.H,
                "  const int i = r * %d + kc.x;" % self.W,
                "  b0[i] = (%ss0 + r * %d + kc.x) & %s;" % (rd, self.r.randint(1, 9), MASK),
                "}"]
        text = "FERRY_KERNEL void %s(ferry::KernelContext kc, %s) {\n%s\n}" % (
            name, ", ".join(params), "\n".join("  " + b for b in body))
        k = Kernel(name, roles, 1, "none", "cols", 1, text)
        self.kernels.append(k)
        return k

    def make_vector_kernel(self):
        """`vec4`: each work-item loads four elements of an input as a
        `ferry::int4` (`vload4`), computes with vectors, scalars and
        components, and stores four of an output (`vstore4`), over a
        range of N / 4 work-items or one short of it (issue 31's vector
        types). Only drawn where 4 divides N; FERRY_WO only where the range
        covers the output."""
        name = self.fresh("k")
        covers = self.chance(0.7)
        wo = covers and self.chance(0.3)
        params = ["%sint *b0" % ("FERRY_WO " if wo else ""),
                  "%sint *b1" % self.r.choice(["const ", "FERRY_RO const ", ""]), "int s0"]
        body = ["const ferry::int4 a = ferry::vload4(kc.x, b1);",
                "ferry::int4 v = a * %d + ferry::int4(s0, kc.x, %d, s0 + kc.x);"
                % (self.r.randint(1, 5), self.r.randint(0, 9))]
        body.append(self.r.choice([
            "v.x += v.w;",
            "v = v + ferry::int4(%d);" % self.r.randint(1, 9),
            "v = (v ^ a) | ferry::int4(1, 0, 1, 0);",
            "v.z = v.y * %d - a.x;" % self.r.randint(1, 3)]))
        body.append("ferry::vstore4(v & %s, kc.x, b0);" % MASK)
        text = "FERRY_KERNEL void %s(ferry::KernelContext kc, %s) {\n%s\n}" % (
            name, ", ".join(params), "\n".join("  " + b for b in body))
        k = Kernel(name, ["out", "in"], 1, "none", "quads" if covers else "quadspart", 1, text)
        self.kernels.append(k)
        return k

    def make_reduce_kernel(self):
        """`reduce`: a reduction (docs/LANGUAGE.md): each work-item folds a
        value made from its element of an input into a `ferry::Sum<int>`,
        `Min<int>` or `Max<int>` bound to another buffer, whose element 0
        gains the fold when the dispatch is done. Integers, so the device's
        order of the operations gives the reference's result."""
        name = self.fresh("k")
        kind = self.pick([(2, "Sum"), (1, "Min"), (1, "Max")])
        params = ["%sint *b0" % self.r.choice(["const ", "FERRY_RO const "]),
                  "ferry::%s<int> r1" % kind, "int s0"]
        val = "(b0[kc.x] * %d + s0 + kc.x) & 0xFF" % self.r.randint(1, 5)
        fold = "r1 += %s;" % val if kind == "Sum" and self.chance(0.7) else \
            "r1.combine(%s);" % val
        guard = self.pick([(2, "none"), (1, "max")])
        body = fold if guard == "none" else "if (kc.x < kc.maxX)\n    %s" % fold
        text = "FERRY_KERNEL void %s(ferry::KernelContext kc, %s) {\n  %s\n}" % (
            name, ", ".join(params), body)
        # (`nbr` against a written role: the two are never one buffer.)
        k = Kernel(name, ["nbr", "red"], 1, guard, "full", 1, text)
        self.kernels.append(k)
        return k

    def make_grid_kernel(self):
        """`grid`: a store at `b0[y * w + x]` over a 2-D range (PolyBench) or
        at `b0[i + j * w]` for every j of a counted loop over a 1-D range
        (Rodinia cfd), the width w a scalar argument. It covers the buffer
        only when the range's columns reach w, which the runtime checks
        (`ferry::grid`); the dispatch picks ranges short of it, exact, and
        rounded up."""
        name = self.fresh("k")
        loop = self.chance(0.5)
        # A row per work-item, `b0[kc.x * w + j]` for j < w: the loop runs
        # over the columns instead of the rows.
        rowloop = loop and self.chance(0.4)
        roles = ["out"] + (["in"] if self.chance(0.5) else [])
        accumulate = self.chance(0.3)  # zero-or-set, then add into it
        if accumulate:
            roles[0] = "acc"
        params = ["int *b0"]
        if len(roles) > 1:
            params.append("%sint *b1" % self.r.choice(["const ", "FERRY_RO const "]))
        params += ["int s0", "int w"]
        rows = None
        if rowloop:
            idx = self.r.choice(["r * w + j", "j + r * w", "w * r + j"])
            body = ["const int r = kc.x;",
                    "for (int j = 0; j < %s; ++j) {" % self.r.choice(["w", "w", "w - 1"])]
            at = "j"
        elif loop:
            rows = self.r.choice(["param", "literal", "macro"])
            if rows == "macro" and "macro" in self.avoid:
                rows = "literal"
            if rows == "param":
                params.append("int h")
                bound = "h"
            elif rows == "macro":
                macro = "%s_ROWS" % self.fresh("G").upper()
                self.globals.append("#define %s %d" % (macro, self.H))
                bound = macro
            else:
                bound = str(self.H)
            idx = self.r.choice(["i + j * w", "j * w + i", "w * j + i"])
            body = ["const int i = kc.x;", "if (i >= w)", "  return;",
                    "for (int j = 0; j < %s; j++) {" % bound]
            at = "j"
        else:
            params.append("int h")
            idx = self.r.choice(["y * w + x", "x + y * w", "w * y + x"])
            body = ["int x = kc.x;", "int y = kc.y;"]
            if self.chance(0.5):
                body += ["if (y < h && x < w) {"]
            else:
                body += ["if (x >= w || y >= h)", "  return;", "{"]
            at = "y"
        rd = "b1[%s] * %d + " % (idx, self.r.randint(1, 5)) if len(roles) > 1 else ""
        body.append("  b0[%s] = (%ss0 + %s * %d) & %s;" % (idx, rd, at, self.r.randint(1, 9), MASK))
        if accumulate:
            body.append("  for (int t = 0; t < %d; ++t)" % self.r.randint(1, 3))
            body.append("    b0[%s] = (b0[%s] + t + s0) & %s;" % (idx, idx, MASK))
        body.append("}")
        text = "FERRY_KERNEL void %s(ferry::KernelContext kc, %s) {\n%s\n}" % (
            name, ", ".join(params), "\n".join("  " + b for b in body))
        k = Kernel(name, roles, 1 if loop else 2, "grid",
                   "gridrow" if rowloop else "gridloop" if loop else "grid2",
                   len(params) - len(roles), text)
        k.param_rows = rows == "param"
        self.kernels.append(k)
        return k

    def make_volume_kernel(self):
        """`volume`: Rodinia hotspot3D's march, `int c = kc.x + kc.y * nx;`
        then `b0[c] = …; c += nx * ny;` before a counted loop over the middle
        planes, in it and after it (or in a loop over all of them). It covers
        nz planes when the range covers one plane; the dispatch's range is
        the plane or falls short of it (`ferry::volume`)."""
        name = self.fresh("k")
        roles = ["out"] + (["in"] if self.chance(0.5) else [])
        params = ["int *b0"]
        if len(roles) > 1:
            params.append("%sint *b1" % self.r.choice(["const ", "FERRY_RO const "]))
        params += ["int s0", "int nx", "int ny", "int nz"]
        rd = "b1[c] + " if len(roles) > 1 else ""
        step = self.r.choice(["xy", "nx * ny", "ny * nx"])
        body = ["int c = %s;" % self.r.choice(["kc.x + kc.y * nx", "kc.y * nx + kc.x"])]
        if step == "xy":
            body.append("int xy = nx * ny;")
        store = lambda v: "b0[c] = (%ss0 + %s) & %s;" % (rd, v, MASK)
        if self.chance(0.5):
            body += [store("1"), "c += %s;" % step,
                     "for (int k = 1; k < nz - 1; ++k) {",
                     "  " + store("k * 3"), "  c += %s;" % step, "}",
                     store("5")]
        else:
            body += ["for (int k = 0; k < nz; ++k) {",
                     "  " + store("k * 3"), "  c += %s;" % step, "}"]
        text = "FERRY_KERNEL void %s(ferry::KernelContext kc, %s) {\n%s\n}" % (
            name, ", ".join(params), "\n".join("  " + b for b in body))
        k = Kernel(name, roles, 2, "volume", "volume", 4, text)
        self.kernels.append(k)
        return k

    def volume_dispatch(self, k, sc, args):
        """nx * ny * nz <= N with nz >= 2 (the march stores at least two
        planes), over the plane or a range short of it (never past it: the
        kernel has no guard, as in hotspot3D)."""
        nx = self.W
        ny = 2 if self.H >= 4 and self.chance(0.5) else 1
        nz = self.r.randint(2, self.H // ny)
        cols = self.r.choice([nx, nx, max(1, nx - 1)])
        rows = self.r.choice([ny, ny, max(1, ny - 1)])
        scal = [self.scalar(sc), str(nx), str(ny), str(nz)]
        return Line("cc.dispatch(%s, ferry::Range(%d, %d), %s);" % (
            k.name, cols, rows, ", ".join([a.ref for a in args] + scal)))

    def grid_dispatch(self, k, sc, args):
        """A dispatch of a grid kernel: a width and rows within the buffer
        (w * rows <= N), and a range that falls short of the width, meets it
        or is rounded up past it."""
        w = self.r.choice([self.W, self.W, max(1, self.W - 1)])
        h = self.r.choice([self.H, self.H, max(1, self.H - 1)])
        cols = self.r.choice([w, w, w + 3, max(1, w - 1)])
        wtext = "%s / %d" % (sc.size, self.H) if w == self.W and self.chance(0.3) else str(w)
        scal = [self.scalar(sc), wtext]
        if k.rangekind == "gridrow":
            # A row of w per work-item, the rows inside the buffer.
            rng = "ferry::Range(%d)" % self.r.choice([self.H, self.H, max(1, self.H - 1)])
            return Line("cc.dispatch(%s, %s, %s);" % (
                k.name, rng, ", ".join([a.ref for a in args] + [self.scalar(sc), wtext])))
        if k.rangekind == "grid2":
            rng = "ferry::Range(%d, %d)" % (cols, self.r.choice([h, h + 2, max(1, h - 1)]))
            scal.append(str(h))
        else:
            rng = "ferry::Range(%d)" % cols
            if k.param_rows:
                scal.append(str(h))
        return Line("cc.dispatch(%s, %s, %s);" % (k.name, rng,
                                                   ", ".join([a.ref for a in args] + scal)))

    def assign_views(self, k, sc):
        """Views for the kernel's buffer parameters, or None: a neighbour read
        never shares a buffer with a written parameter."""
        views = [v for v in sc.views if not v.const]
        if not views:
            return None
        for _ in range(12):
            chosen = [self.r.choice(views) for _ in k.params]
            ok = True
            for a, ra in zip(chosen, k.params):
                for b, rb in zip(chosen, k.params):
                    if ra == "nbr" and rb in WRITES and not distinct(a, b):
                        ok = False
            if ok:
                return chosen
        return None

    def dispatch(self, sc, prefer_views=None):
        k = None
        if self.kernels and self.chance(0.35):
            k = self.r.choice(self.kernels)
        args = None
        if k:
            args = self.assign_views(k, sc)
        if args is None:
            if "columns" not in self.avoid and self.chance(0.08):
                k = self.make_column_kernel()
            elif "grid" not in self.avoid and self.chance(0.08):
                k = self.make_grid_kernel()
            elif "volume" not in self.avoid and self.chance(0.05):
                k = self.make_volume_kernel()
            elif "reduce" not in self.avoid and self.chance(0.06):
                k = self.make_reduce_kernel()
            elif "vec4" not in self.avoid and self.N % 4 == 0 and self.chance(0.06):
                k = self.make_vector_kernel()
            else:
                dims = self.pick([(16, 1), (4, 2), (1, 3)])
                k = self.make_kernel(self.r.choice([1, 1, 2, 2, 3]), dims, self.chance(0.2))
            args = self.assign_views(k, sc)
            if args is None:
                return None
        if k.rangekind in ("grid2", "gridloop", "gridrow"):
            return self.grid_dispatch(k, sc, args)
        if k.rangekind == "volume":
            return self.volume_dispatch(k, sc, args)
        if k.rangekind == "cols":
            rng = "ferry::Range(%d)" % self.W
        elif k.rangekind in ("quads", "quadspart"):
            quads = self.N // 4 - (k.rangekind == "quadspart")
            rng = "ferry::Range(%s)" % (
                "%s / 4" % sc.size if k.rangekind == "quads" and self.chance(0.5) else quads)
        elif k.dims == 3:
            rng = "ferry::Range(%d, 1, %d)" % (self.W, self.H)
        elif k.dims == 2:
            rng = "ferry::Range(%d, %d)" % (self.W, self.H) if self.chance(0.5) else \
                "ferry::Range(%s / %d, %d)" % (sc.size, self.H, self.H)
        elif k.rangekind == "part":
            rng = "ferry::Range(%s)" % self.r.choice(["%s - 1" % sc.size, "%s / 2" % sc.size])
        else:
            rng = "ferry::Range(%s)" % self.r.choice([sc.size, args[0].member("size()"),
                                                     str(self.N)])
        scal = [self.scalar(sc)]
        if k.guard == "lim":
            scal.append("%s / 2" % sc.size if self.chance(0.5) else str(self.r.randint(1, self.N)))
        return Line("cc.dispatch(%s, %s, %s);" % (k.name, rng,
                                                   ", ".join([a.ref for a in args] + scal)))

    def scalar(self, sc):
        c = self.r.randint(0, 14)
        if c == 0 and "macro" not in self.avoid:
            if not self.macro:
                self.macro = "%s_NV" % self.tag.upper()
                self.globals.append("#define %s %d" % (self.macro, self.r.randint(2, 9)))
            return "%s * %s" % (sc.size, self.macro)
        # (Not in an object's time step: a host read of an element would
        # keep its loop from holding the object.)
        if c <= 3 and sc.views and getattr(self, "pure_loop", False) is False:
            v = self.r.choice(sc.views)
            return "%s & 7" % v.at(self.index(sc))
        return self.small(sc)

    # -- host statements ------------------------------------------------------
    def writable(self, sc):
        return [v for v in sc.views if not v.const]

    def host_write(self, sc):
        vs = self.writable(sc)
        if not vs:
            return None
        v = self.r.choice(vs)
        c = self.pick([(4, "elem"), (1, "data"), (3, "loop"), (4, "fill"), (1, "fillpart"), (3, "iota"),
                       (1, "iotapart"), (3, "copy"), (2, "copyn"), (1, "copypart"),
                       (2, "rangefor"), (2, "vectorcopy"), (2, "fillself"),
                       (2, "countloop"), (1, "elem0"), (2, "ptrcopy"), (2, "runidx")])
        if c in self.avoid:
            c = "elem"
        b, e = v.member("begin()"), v.member("end()")
        if c == "elem":
            return Line("%s = %s;" % (v.at(self.index(sc)), self.value(sc)))
        if c == "data":
            return Line("%s[%s] = %s;" % (v.member("data()"), self.index(sc), self.value(sc)))
        if c == "loop":
            i = self.fresh("i")
            return Line("for (std::size_t %s = 0; %s < %s; ++%s)\n  %s = (%s + 3 * static_cast<int>(%s)) & %s;"
                        % (i, i, v.member("size()"), i, v.at(i), v.at(i), i, MASK))
        if c == "fill":
            return Line("std::fill(%s, %s, %s);" % (b, e, self.value(sc)))
        if c == "countloop":
            # `countloop`: a counted loop storing v[i], whose bound may fall
            # short of the size or be negative, and whose value may read v.
            i = self.fresh("ci")
            k = self.pick([(3, "static_cast<int>(%s)" % v.member("size()")),
                           (2, str(self.r.randint(0, self.N))), (1, "-1")])
            return Line("for (int %s = 0; %s < %s; ++%s)\n  %s = %s;"
                        % (i, i, k, i, v.at(i), self.value(sc)))
        if c == "runidx":
            # `runidx`: a 2-D array flattened by a running index over two
            # counting loops (`<` or `<=`), all rows or one fewer; now and
            # then stepped before the store, which starts it at -1.
            m, r, q = self.fresh("idx"), self.fresh("row"), self.fresh("col")
            rows = self.H - self.r.choice([0, 0, 1])
            outer = ("%s < %d" % (r, rows)) if self.chance(0.5) else ("%s <= %d - 1" % (r, rows))
            inner = ("%s < %d" % (q, self.W)) if self.chance(0.5) else ("%s <= %d" % (q, self.W - 1))
            if self.chance(0.2):
                start, body = -1, "++%s;\n    %s = %s;" % (m, v.at(m), self.value(sc))
            else:
                start, body = 0, "%s = %s;\n    %s++;" % (v.at(m), self.value(sc), m)
            text = ("int %s = %d;\nfor (int %s = 0; %s; ++%s)\n  for (int %s = 0; %s; ++%s) {\n"
                    "    %s\n  }" % (m, start, r, outer, r, q, inner, q, body))
            return Compound(["{", [Line(text)], "}"])
        if c == "elem0":
            return Line("%s = %s;" % (v.at("0"), self.value(sc)))
        if c == "ptrcopy":
            # `ptrcopy`: std::copy from a raw pointer range of n (or fewer).
            vec, ptr = self.fresh("vec"), self.fresh("src")
            m = "static_cast<int>(%s)" % sc.size if self.chance(0.6) else \
                str(self.r.randint(0, self.N))
            text = ("std::vector<int> %s(static_cast<std::size_t>(%s), %s);\n"
                    "const int *%s = %s.data();\nstd::copy(%s, %s + %s, %s);"
                    % (vec, sc.size, self.value(sc), ptr, vec, ptr, ptr, m, b))
            return Compound(["{", [Line(text)], "}"])
        if c == "fillself":
            # `fillself`: a whole overwrite whose value reads the target.
            return Line("std::fill(%s, %s, (%s + 1) & %s);" % (b, e, v.at(self.index(sc)), MASK))
        if c == "vectorcopy":
            # A std::vector<int> of the buffer's size (or shorter) copied in.
            vec = self.fresh("vec")
            m = "static_cast<std::size_t>(%s)" % sc.size if self.chance(0.6) else \
                str(self.r.randint(1, self.N - 1))
            if self.chance(0.5):
                init = "std::vector<int> %s(%s, %s);" % (vec, m, self.value(sc))
            else:
                init = "std::vector<int> %s(%s);\nstd::iota(%s.begin(), %s.end(), %s);" % (
                    vec, m, vec, vec, self.small(sc))
            fill = Line("%s\nstd::copy(%s.begin(), %s.end(), %s);" % (init, vec, vec, b))
            return Compound(["{", [fill], "}"])
        if c == "fillpart":
            return Line("std::fill(%s + 1, %s, %s);" % (b, e, self.value(sc)))
        if c == "iota":
            return Line("std::iota(%s, %s, %s);" % (b, e, self.small(sc)))
        if c == "iotapart":
            return Line("std::iota(%s, %s + %d, %s);" % (b, b, self.r.randint(1, self.N), self.small(sc)))
        if c == "rangefor":
            e2 = self.fresh("e")
            return Line("for (int &%s : %s)\n  %s = (%s + %d) & %s;" % (e2, v.ref, e2, e2,
                                                                       self.r.randint(1, 9), MASK))
        srcs = [u for u in sc.views if distinct(u, v)]
        if not srcs:
            return Line("std::fill(%s, %s, %s);" % (b, e, self.value(sc)))
        u = self.r.choice(srcs)
        if c == "copy":
            return Line("std::copy(%s, %s, %s);" % (u.member("begin()"), u.member("end()"), b))
        if c == "copyn":
            return Line("std::copy_n(%s, %d, %s);" % (u.member("begin()"), self.r.randint(1, self.N), b))
        return Line("std::copy(%s, %s + %d, %s);" % (u.member("begin()"), u.member("begin()"),
                                                    self.r.randint(1, self.N), b))

    def host_read(self, sc):
        if not sc.views:
            return None
        v = self.r.choice(sc.views)
        c = self.r.randint(0, 3)
        if c == 0 or not sc.fn.acc:
            return self.prn("%s[]" % v.ref.replace('"', "").replace("%", "%%"), v.at(self.index(sc)))
        a = sc.fn.acc
        if c == 1:
            return Line("%s = (%s + %s) & %s;" % (a, a, v.at(self.index(sc)), MASK))
        if c == 2:
            e = self.fresh("e")
            return Line("for (int %s : %s)\n  %s = (%s + %s) & %s;" % (e, v.ref, a, a, e, MASK))
        i = self.fresh("i")
        return Line("for (std::size_t %s = 0; %s < %s; ++%s)\n  %s = (%s * 3 + %s) & %s;"
                    % (i, i, v.member("size()"), i, a, a, v.at(i), MASK))

    def cond(self, sc):
        c = self.r.randint(0, 3)
        if sc.views and c <= 1:
            v = self.r.choice(sc.views)
            return "%s %% %d == %d" % (v.at(self.index(sc)), self.r.randint(2, 3), self.r.randint(0, 1))
        if c == 2 and sc.fn.acc:
            return "%s %% 2 == 0" % sc.fn.acc
        return "%s > %d" % (self.small(sc), self.r.randint(0, 2))

    def block(self, sc, budget):
        out = []
        n = self.r.randint(1, max(1, budget))
        for _ in range(n):
            s = self.stmt(sc, budget // 2)
            if s is not None:
                out.extend(s if isinstance(s, list) else [s])
        return out

    def stmt(self, sc, budget):
        fn = sc.fn
        deep = sc.depth >= 3 or budget <= 1
        choices = [(5, "read")]
        if not fn.readonly:
            choices += [(6, "write")]
        if not fn.readonly and fn.kind != "helper":
            choices += [(12, "dispatch")]
        if not deep:
            choices += [(5, "if"), (6, "for"), (1, "while"), (1, "do"), (2, "forever")]
        if sc.loop:
            choices += [(3, "jump")]
        if fn.kind in ("compute", "sub") and not deep:
            choices += [(2, "condref")]
        if fn.kind == "compute":
            choices += [(3, "helper"), (2, "helperptr"), (2, "chelper"), (2, "opaque"),
                        (1, "localbuf"), (1, "recursive"), (2, "helper2")]
            if sc.depth == 0:
                choices += [(2, "ptrpair"), (1, "grid")]
            if sc.pairs:
                choices += [(4, "swap")]
            if any(pr[0] == "ptr" for pr in sc.pairs):
                if "swap" not in self.avoid:  # a swap too, through a helper
                    choices += [(2, "flipref")]
                if not deep:
                    choices += [(2, "ptrcompare")]
            if not deep:
                choices += [(2, "wrapper"), (1, "sub"), (1, "structhelper")]
            if self.form in CLASS_FORMS:
                choices += [(3, "memberhelper")]
                if not deep:
                    choices += [(3, "memberlaunch")]
            if self.form == "nested" and not deep:
                choices += [(3, "gridhelper")]
            if self.form == "vector":
                choices += [(3, "vecfor")]
                if not deep:
                    choices += [(3, "levels")]
        if self.form == "nested" and not fn.readonly and \
                any(v.ref.endswith(("grid_.cur", "grid_.next")) for v in sc.views):
            choices += [(2, "gridpoke")]
        if fn.void:
            choices += [(1, "return")]
        choices = [(w, c) for w, c in choices if c not in self.avoid]
        c = self.pick(choices)
        if c == "write":
            return self.host_write(sc)
        if c == "read":
            return self.host_read(sc)
        if c == "dispatch":
            return self.dispatch(sc)
        if c == "if":
            then = self.block(sc.child(), budget)
            if self.chance(0.4):
                return Compound(["if (%s) {" % self.cond(sc), then, "} else {",
                                 self.block(sc.child(), budget), "}"], "if")
            return Compound(["if (%s) {" % self.cond(sc), then, "}"], "if")
        if c == "for":
            i = self.fresh("i")
            lim = self.r.choice(sc.fn.trips) if self.chance(0.7) else str(self.r.randint(0, 3))
            inner = sc.child("for")
            inner.ints = sc.ints + [i]
            return Compound(["for (int %s = 0; %s < %s; ++%s) {" % (i, i, lim, i),
                             self.block(inner, budget), "}"], "for", loopvar=i)
        if c in ("while", "do"):
            w = self.fresh("w")
            lim = self.r.choice(sc.fn.trips)
            inner = sc.child("loop")
            body = self.block(inner, budget) + [Line("++%s;" % w, removable=False)]
            if c == "while":
                loop = Compound(["while (%s < %s) {" % (w, lim), body, "}"], "while", loopvar=w)
            else:
                loop = Compound(["do {", body, "} while (%s < %s);" % (w, lim)], "do", loopvar=w)
            return [Line("int %s = 0;" % w), loop]
        if c == "forever":
            inner = sc.child("loop")
            body = self.block(inner, budget) + [Line("break;", removable=False)]
            return Compound(["for (;;) {", body, "}"], "forever")
        if c == "jump":
            kinds = ["break"] + (["continue"] if sc.loop == "for" else [])
            return Compound(["if (%s) {" % self.cond(sc), [Line(self.r.choice(kinds) + ";")], "}"], "if")
        if c == "return":
            return Compound(["if (%s) {" % self.cond(sc), [Line("return;")], "}"], "if")
        if c == "condref":
            return self.condref(sc)
        if c == "ptrpair":
            return self.ptrpair(sc)
        if c == "grid":
            return self.grid(sc)
        if c == "swap":
            kind, x, y = self.r.choice(sc.pairs)
            if kind == "ptr":
                return Line("std::swap(%s, %s);" % (x, y))
            return Line("%s = 1 - %s;" % (x, x))
        if c == "flipref":
            return self.flipref(sc)
        if c == "ptrcompare":
            return self.ptrcompare(sc, budget)
        if c == "structhelper":
            return self.struct_call(sc)
        if c == "localbuf":
            return self.localbuf(sc)
        if c == "recursive":
            return self.recursive_call(sc)
        if c == "helper2":
            return self.helper2_call(sc)
        if c in ("helper", "helperptr", "chelper", "opaque"):
            return self.helper_call(sc, c)
        if c == "wrapper":
            return self.wrapper_call(sc)
        if c == "sub":
            return self.sub_call(sc)
        if c == "memberhelper":
            return self.member_helper_call(sc)
        if c == "memberlaunch":
            return self.member_launch_call(sc)
        if c == "gridhelper":
            return self.grid_helper_call(sc)
        if c == "gridpoke":
            return self.grid_poke(sc)
        if c == "vecfor":
            return self.vector_for(sc)
        if c == "levels":
            return self.levels_loop(sc, budget)
        return None

    # -- buffers in objects and containers ---------------------------------------
    def member_views(self, fn_views=None):
        """Views of the class's buffers inside one of its member functions:
        `a` or `this->a`."""
        out = []
        for b in self.bufs:
            m = self.mref.get(b, b)
            ref = m if self.chance(0.6) else "this->%s" % m
            out.append(View(ref, "&" + ref, {b}))
        return out

    def member_helper_call(self, sc):
        """`memberhelper`: a member function of the class that reads or writes
        its buffers on the host (no buffer parameter: it reaches them through
        `this`)."""
        name = self.fresh("mh")
        readonly = self.chance(0.3)
        fn = FnCtx("helper", ["v"], readonly, True)
        msc = Scope(self.member_views(), ["v"], "static_cast<int>(%s.size())" % self.mref.get(self.bufs[0], self.bufs[0]), fn)
        msc.depth = 1
        body = []
        for _ in range(self.r.randint(1, 3)):
            st = self.stmt(msc, 2)
            if st is not None:
                body.extend(st if isinstance(st, list) else [st])
        const = " const" if readonly and not any(
            "=" in l and "==" not in l for st in body for l in st.lines("")) else ""
        self.mfuncs.append(Func(name, "void %s(int v)%s {" % (name, const), body))
        return Line("%s(%s);" % (name if self.chance(0.5) else "this->" + name, self.small(sc)))

    def member_launch_call(self, sc):
        """`memberlaunch`: a member function of the class that dispatches on
        its buffers, reached through `this`, possibly in a loop."""
        name = self.fresh("mlaunch")
        fn = FnCtx("wrapper", ["k"])
        msc = Scope(self.member_views(), ["k"], "n", fn)
        msc.depth = 1
        body = []
        for _ in range(self.r.randint(1, 3)):
            st = self.stmt(msc, 2)
            if st is not None:
                body.extend(st if isinstance(st, list) else [st])
        if not any("cc.dispatch" in l for st in body for l in st.lines("")):
            d = self.dispatch(msc)
            if d:
                body.append(d)
        self.mfuncs.append(Func(name, "void %s(ferry::ComputeContext &cc, int n, int k) {"
                                % name, body))
        call = Line("%s(cc, %s, %s);" % (name, sc.size, self.small(sc)))
        if self.chance(0.5):
            i = self.fresh("i")
            return Compound(["for (int %s = 0; %s < %s; ++%s) {" % (i, i, self.r.choice(sc.fn.trips), i),
                             [call], "}"], "for", loopvar=i)
        return call

    def grid_views(self, sc):
        return [v for v in sc.views if v.ref.endswith(("grid_.cur", "grid_.next"))]

    def grid_poke(self, sc):
        """`gridpoke`: `grid_.cur[i] += v` on the host, a compound assignment
        to an element of a member of a member (then masked)."""
        v = self.r.choice(self.grid_views(sc))
        at = v.at(self.index(sc))
        return Line("%s += %s;\n%s &= %s;" % (at, self.small(sc), at, MASK))

    def grid_helper_call(self, sc):
        """`gridhelper`: a free FERRY_COMPUTE helper given the member struct
        (`Grid &g`) that dispatches on and writes `g.cur` and `g.next`; called
        once, twice with a host write of `grid_.cur` between, or in a loop."""
        name = self.fresh("gstep")
        head = ("FERRY_COMPUTE void %s(ferry::ComputeContext &cc, %s &g, int n, int k) {"
                % (name, self.gridtype))
        body = self.callee_body("wrapper", True, sc, (View("g.cur", "&g.cur", {"x"}),
                                                      View("g.next", "&g.next", {"y"})))
        self.hfuncs.append(Func(name, head, body))
        g = self.r.choice(["grid_", "grid_", "this->grid_"])
        call = Line("%s(cc, %s, %s, %s);" % (name, g, sc.size, self.small(sc)))
        c = self.r.randint(0, 2)
        if c == 0:
            return call
        poke = self.grid_poke(sc) if self.grid_views(sc) and "gridpoke" not in self.avoid \
            else self.host_write(sc)
        if c == 1:
            again = Line("%s(cc, %s, %s, %s);" % (name, g, sc.size, self.small(sc)))
            return [call, poke, again] if poke else [call, again]
        i = self.fresh("i")
        return Compound(["for (int %s = 0; %s < %s; ++%s) {" % (i, i, self.r.choice(sc.fn.trips), i),
                         [call] + ([poke] if poke else []), "}"], "for", loopvar=i)

    def vector_for(self, sc):
        """`vecfor`: a range-for over the container on the host, reading or
        writing one element of every buffer."""
        e = self.fresh("e")
        idx = self.index(sc)
        if sc.fn.readonly or self.chance(0.5):
            if sc.fn.acc:
                return Line("for (const auto &%s : vs)\n  %s = (%s + %s[%s]) & %s;"
                            % (e, sc.fn.acc, sc.fn.acc, e, idx, MASK))
            return Line('for (auto &%s : vs)\n  std::printf("[%s] elem %%d\\n", %s[%s]);'
                        % (e, self.tag, e, idx))
        return Line("for (auto &%s : vs)\n  %s[%s] = (%s[%s] * 7 + %d) & %s;"
                    % (e, e, idx, e, idx, self.r.randint(0, 99), MASK))

    def levels_loop(self, sc, budget):
        """`levels`: a loop over neighbouring elements, `vs[l]` and
        `vs[l + 1]` (a multigrid's levels), whose index Ferry cannot know:
        each may be any buffer of the container, but never the other."""
        l = self.fresh("l")
        pair = self.fresh("pair")
        allb = set(self.bufs)
        lo = View("vs[%s]" % l, "&vs[%s]" % l, allb, pair, 0)
        hi = View("vs[%s + 1]" % l, "&vs[%s + 1]" % l, allb, pair, 1)
        inner = sc.child("for")
        inner.views = sc.views + [lo, hi]
        body = self.block(inner, budget)
        if not any("cc.dispatch" in ln for st in body for ln in st.lines("")):
            d = self.dispatch(inner)
            if d:
                body.append(d)
        up = self.chance(0.5)
        head = ("for (std::size_t %s = 0; %s + 1 < vs.size(); ++%s) {" % (l, l, l) if up else
                "for (std::size_t %s = vs.size() - 1; %s-- > 0;) {" % (l, l))
        return Compound([head, body, "}"], "for" if up else "loop", loopvar=l)

    def split_pieces(self):
        if self.split_types is None:
            return None
        return (self.split_types, self.split_head, self.split_defs)

    # -- objects that own their buffers (`objects`, `nested`) --------------------
    def class_setup(self):
        """How the class of an `objects` or `nested` program is laid out: its
        buffers private members `a_`, `b_`... or, for `nested`, the first two
        in a member struct, `grid_.cur` and `grid_.next` (declared in the
        class or at namespace scope, public 50 %); the compute function
        defined in the class or after it (`outofclass`)."""
        r = self.r
        nested = self.form == "nested"
        self.cls = "%s_%s" % (self.tag, "Sim" if nested else "Body")
        self.mref = {b: b + "_" for b in self.bufs}
        self.outofclass = "outofclass" not in self.avoid and r.random() < 0.35
        self.gridpublic = False
        if nested:
            self.mref.update(a="grid_.cur", b="grid_.next")
            # A struct declared in the class needs the class complete before
            # the helpers that take it, so the compute is defined after both.
            self.gridinner = self.outofclass and r.random() < 0.7
            self.gridtype = ("%s::Grid" % self.cls) if self.gridinner else "%s_Grid" % self.tag
            self.gridpublic = "gridpublic" not in self.avoid and r.random() < 0.5
        # What host code outside computes may do to the members: anything
        # (`bump`), only read them through const (`objreadonly`: their device
        # copy is kept between computes), or write one through a const
        # accessor cast to non-const (`objcast`: then nothing may be kept).
        self.objmode = "plain"
        # `objvirtual`: the class overrides a pure virtual compute of a base
        # that holds no buffers, and some steps call it through the base.
        self.virtual = "objvirtual" not in self.avoid and self.xr.random() < 0.3
        roll = r.random()
        if roll < 0.3 and "objreadonly" not in self.avoid:
            self.objmode = "readonly"
        elif roll < 0.35 and "objcast" not in self.avoid:
            self.objmode = "cast"
        self.viewed = None
        yr = self.yr
        # `objextra`: a second class derived from the base, holding a
        # `ferry::Buffer<float>`, defined only in the other source of a split
        # program and reached only through the base (a factory): main's file
        # can neither name its buffer nor see its overrides.
        self.extra = self.virtual and "objextra" not in self.avoid and yr.random() < 0.5
        # `objfunctor`: the std::function host code calls (`bumpfn`) runs a
        # function object holding a pointer to the object (`pK_Poke`), or a
        # lambda a host member makes (`poker()`), instead of main's lambda.
        if self.objmode == "plain" and not {"objfunctor", "objfunction", "objhost"} & self.avoid:
            self.bumpkind = yr.choice(["lambda", "functor", "poker"])

    def class_compute(self, name, inits):
        """(head, tail) of the compute function; the class goes into the head
        (defined in the class) or into self.types (defined after it)."""
        r, tag, cls, N = self.r, self.tag, self.cls, self.N
        m = self.mref
        params = "ferry::ComputeContext &cc,\n    int n, int k0, int k1"
        grid = "grid_.cur" in m.values()
        pub, priv, ctor_init, ctor_body = [], [], [], []
        if grid:
            fields = "  ferry::Buffer<int> cur, next;" if r.random() < 0.5 else \
                "  ferry::Buffer<int> cur;\n  ferry::Buffer<int> next;"
            if self.gridinner:
                decl = "struct Grid {\n%s\n}" % fields
                if self.gridpublic:
                    pub.append(decl + " grid_;")
                else:
                    pub.append(decl + ";")
                    priv.append("Grid grid_;")
            else:
                self.types.append("struct %s_Grid {\n%s\n};" % (tag, fields))
                (pub if self.gridpublic else priv).append("%s_Grid grid_;" % tag)
            ctor_init.append("grid_{ferry::Buffer<int>%s, ferry::Buffer<int>%s}"
                             % (inits["a"], inits["b"]))
        for b in self.bufs:
            if not m[b].startswith("grid_."):
                priv.append("ferry::Buffer<int> %s;" % m[b])
                ctor_init.append("%s%s" % (m[b], inits[b]))
        for i, b in enumerate(self.bufs):
            if i == 0 or r.random() < 0.7:
                ctor_body.append("for (int i = 0; i < %d; ++i)\n  %s[i] = (i * %d + s + %d) & 0xFF;"
                                 % (N, m[b], r.randint(1, 13), r.randint(0, 50)))
        ctor = ["explicit %s(int s)\n    : %s {" % (cls, ", ".join(ctor_init))]
        ctor += ["  " + l for t in ctor_body for l in t.split("\n")] + ["}"]
        # Host members main and the lambda call between computes and steps.
        b = r.choice(self.bufs)
        at = "%s[%d]" % (m[b], r.randrange(N))
        if m[b].startswith("grid_.") and r.random() < 0.7 and "gridpoke" not in self.avoid:
            bump = "%s += v;\n  %s &= %s;" % (at, at, MASK)
        else:
            bump = "%s = (%s + v) & %s;" % (at, at, MASK)
        host = [] if self.objmode == "readonly" else ["void bump(int v) {\n  %s\n}" % bump]
        if self.bumpkind == "poker":
            host.append("std::function<void(int)> poker() {\n"
                        "  return [this](int v) { bump(v); };\n}")
        elif self.bumpkind == "functor":
            self.after_class.append(
                "struct %s_Poke {\n  %s *o;\n  int d;\n"
                "  void operator()(int v) const { o->bump(v + d); }\n};" % (tag, cls))
        if self.objmode == "cast":
            self.viewed = r.choice(self.bufs)
            host.append("const ferry::Buffer<int> &view() const { return %s; }"
                        % m[self.viewed])
        summed = [x for x in self.bufs if r.random() < 0.7] or [self.bufs[0]]
        host.append("int sum() const {\n  int t = 0;\n%s\n  return t;\n}" % "\n".join(
            "  for (int x : %s)\n    t = (t * 3 + x) & %s;" % (m[x], MASK) for x in summed))
        host.append("void show(int i) const {\n%s\n}" % "\n".join(
            '  std::printf("[%s] o%%d ", i);\n  fuzz_print("%s", %s);' % (tag, x, m[x])
            for x in self.bufs))

        def indent(lines):
            return ["  " + l if l else l for t in lines for l in t.split("\n")]

        members = []
        for f in self.mfuncs:
            members += f.lines()
        members += [l for t in host for l in t.split("\n")]
        over = ""
        top = ["class %s {" % cls, " public:"] + indent(pub + ctor)
        if self.virtual:
            over = " override"
            extra = ("  virtual void poke(int v) { (void)v; }\n"
                     "  virtual void report(int i) const { (void)i; }\n") if self.extra else ""
            self.types.append("struct %s_Base {\n  virtual ~%s_Base() = default;\n"
                              "  FERRY_COMPUTE virtual void %s(%s) = 0;\n%s};"
                              % (tag, tag, name, params, extra))
            if self.extra:
                self.types.append("std::unique_ptr<%s_Base> %s_make_extra(int s);" % (tag, tag))
                self.extra_class(name, params)
            top[0] = "class %s : public %s_Base {" % (cls, tag)
        bottom = [" private:"] + indent(priv) + ["};"] if priv else ["};"]
        head = "FERRY_COMPUTE void %s(%s)%s {" % (name, params, over)
        # Two sources: the header declares the compute and the member
        # helpers; each host member stays inline (an accessor in the header)
        # or is defined in the other source too (`splithost`).
        inline_host, split_decls = [], ["FERRY_COMPUTE void %s(%s)%s;" % (name, params, over)]
        split_decls += [declaration(f.head) for f in self.mfuncs]
        self.split_defs = [outlined(f, cls) for f in self.mfuncs]
        for t in host:
            if "splithost" not in self.avoid and self.sr.random() < 0.6:
                d, f = outlined_text(t, cls)
                split_decls.append(d)
                self.split_defs.append(f)
            else:
                inline_host.append(t)
        self.split_types = list(self.types) + [
            "\n".join(top + indent(split_decls + inline_host) + bottom)]
        self.split_head = "FERRY_COMPUTE void %s::%s(%s) {" % (cls, name, params)
        if self.outofclass:
            decl = "FERRY_COMPUTE void %s(%s)%s;" % (name, params, over)
            self.types.append("\n".join(top + indent([decl] + members) + bottom))
            return "FERRY_COMPUTE void %s::%s(%s) {" % (cls, name, params), "}"
        return ("\n".join(top + indent(members)) + "\n" + head,
                "}\n" + "\n".join(bottom))

    def extra_class(self, name, params):
        """`objextra`: the kernel, class and factory of the second derived
        class (self.hidden: the other source of a split program)."""
        tag, N = self.tag, self.N
        self.hidden.append(
            "FERRY_KERNEL void %s_xk(ferry::KernelContext kc, float *x, int k) {\n"
            "  x[kc.x] = x[kc.x] * 0.5f + static_cast<float>(k + kc.x %% 3);\n}" % tag)
        self.hidden.append("\n".join([
            "class %s_Extra : public %s_Base {" % (tag, tag),
            " public:",
            "  explicit %s_Extra(int s) : x_(%d) {" % (tag, N),
            "    for (int i = 0; i < %d; ++i)" % N,
            "      x_[i] = static_cast<float>((i * 5 + s) % 17);",
            "  }",
            "  FERRY_COMPUTE void %s(%s) override {" % (name, params),
            "    (void)k1;",
            "    cc.dispatch(%s_xk, ferry::Range(n), x_, k0 + %d);" % (tag, self.yr.randint(0, 3)),
            "  }",
            "  void poke(int v) override { x_[v %% %d] += 1.0f; }" % N,
            "  void report(int i) const override {",
            "    double t = 0;",
            "    for (float v : x_)",
            "      t += v;",
            '    std::printf("[%s] x%%d: %%.4f %%.4f\\n", i, static_cast<double>(x_[0]), t);' % tag,
            "  }",
            "",
            " private:",
            "  ferry::Buffer<float> x_;",
            "};"]))
        self.hidden.append("std::unique_ptr<%s_Base> %s_make_extra(int s) {\n"
                           "  return std::make_unique<%s_Extra>(s);\n}" % (tag, tag, tag))

    def obj_helper(self, kind):
        """A helper given an object (defined after the class): `drive` by
        reference and `drivep` by pointer run its compute (FERRY_COMPUTE, or
        a plain function 30 %), `stepall` steps every object of the vector,
        `poke` (by reference or pointer) and `total` are host code."""
        if kind in self.objfuncs:
            return self.objfuncs[kind]
        tag, cls = self.tag, self.cls
        name = self.fresh(kind)
        ann = "FERRY_COMPUTE" if self.r.random() < 0.7 or "objplain" in self.avoid else "static"
        run = "%s_run(cc, n, k0, k1);" % tag
        if kind in ("drive", "drivep"):
            o, dot = ("&o", "o.") if kind == "drive" else ("*o", "o->")
            head = "%s void %s(ferry::ComputeContext &cc, %s %s, int n, int k0, int k1) {" % (
                ann, name, cls, o)
            body = [Line(dot + run, removable=False)]
            if self.r.random() < 0.4:
                body += [Line("%sbump(k0 + 1);" % dot)
                         if "objhost" not in self.avoid and self.objmode != "readonly" else
                         Line("%s%s_run(cc, n, k0, k1);" % (dot, tag)),
                         Line("%s%s_run(cc, n, k1, k0);" % (dot, tag))]
        elif kind == "stepall":
            head = ("%s void %s(ferry::ComputeContext &cc, std::vector<%s> &os, int n, int k0,\n"
                    "    int k1) {" % (ann, name, cls))
            body = [Line("for (%s &o : os)\n  o.%s" % (self.r.choice(["auto", cls]), run),
                         removable=False)]
        elif kind == "poke":
            o, dot = ("&o", "o.") if self.r.random() < 0.5 else ("*o", "o->")
            self.pokeptr = o == "*o"
            head = "static void %s(%s %s, int v) {" % (name, cls, o)
            body = [Line("%sbump(v);" % dot, removable=False)]
        else:
            head = "static int %s(const %s &o) {" % (name, cls)
            body = [Line("return o.sum();", removable=False)]
        self.late.append(Func(name, head, body))
        self.objfuncs[kind] = name
        return name

    def obj_host(self, o, arrow):
        """`objhost`: host code on object `o` between computes or steps: its
        host members, a helper given it, or (public `grid_`) a member of its
        member written directly."""
        if "objhost" in self.avoid:
            return None
        dot = "->" if arrow else "."
        r = self.r
        c = r.choice(["bump", "bump", "sum", "helper"] + (["grid", "grid"] if self.gridpublic else []))
        if c == "helper" and "objhelper" in self.avoid:
            c = "bump"
        if self.objmode != "plain" and c in ("bump", "grid"):
            c = "cast" if self.objmode == "cast" and r.random() < 0.6 else "sum"
        if c == "bump":
            return "%s%sbump(%d);" % (o, dot, r.randint(0, 99))
        if c == "cast":
            i = r.randrange(self.N)
            return ("{\n  ferry::Buffer<int> &w = const_cast<ferry::Buffer<int> &>(%s%sview());\n"
                    "  w[%d] = (w[%d] + %d) & %s;\n}" % (o, dot, i, i, r.randint(1, 99), MASK))
        if c == "sum":
            return 'std::printf("[%s] sum %%d\\n", %s%ssum());' % (self.tag, o, dot)
        if c == "grid":
            at = "%s%sgrid_.%s[%d]" % (o, dot, r.choice(["cur", "next"]), r.randrange(self.N))
            return "%s += %d;\n%s &= %s;" % (at, r.randint(0, 9), at, MASK)
        if r.random() < 0.5 or self.objmode == "readonly":
            return 'std::printf("[%s] total %%d\\n", %s(%s%s));' % (
                self.tag, self.obj_helper("total"), "*" if arrow else "", o)
        name = self.obj_helper("poke")
        if self.pokeptr:
            return "%s(%s%s, %d);" % (name, "" if arrow else "&", o, r.randint(0, 99))
        return "%s(%s%s, %d);" % (name, "*" if arrow else "", o, r.randint(0, 99))

    def obj_steps(self, objs, many, ptrs, k0, k1):
        """The statements of a compute lambda that step the objects: by
        range-for, by index, through a reference bound first, through an array
        of object pointers, through helpers (`objfor`, `objindex`, `objref`,
        `objptrs`, `objhelper`), with host code between steps (`objhost`)."""
        r, tag, cls, N = self.r, self.tag, self.cls, self.N
        styles = ["objfor", "objindex", "objref", "objptrs", "objhelper"] if many else \
            ["direct", "direct", "objref", "objptrs", "objhelper"]
        if self.pure_loop is not False and not many:
            # (A pointer to the object in a time loop's lambda keeps the loop
            # from holding it: rarer there.)
            styles = ["direct", "direct", "objref", "objhelper", "objhelper", "objptrs"]
        styles = [s for s in styles if s not in self.avoid] or ["direct" if not many else "objindex"]
        if many and styles == ["objindex"] and "objindex" in self.avoid:
            styles = ["objconst"]
        style = r.choice(styles)
        run = "%s_run(cc, %d, %d, %s);" % (tag, N, k0, "%s")

        # (Less host code in a time loop, so that more loops qualify.)
        quiet = self.pure_loop is not False and not many

        xr = self.xr

        def host(o, arrow):
            h = self.obj_host(o, arrow) if r.random() < (0.1 if quiet else 0.4) else None
            if self.bumpfn and xr.random() < 0.3:
                h = (h + "\n" if h else "") + "%s(%d);" % (self.bumpfn, xr.randint(0, 99))
            return [h] if h else []

        def body(o, arrow, k1e):
            dot = "->" if arrow else "."
            ro, rdot = o, dot
            if self.virtual and xr.random() < 0.5:
                # Through the base: a call whose target only the run knows.
                ro = "static_cast<%s_Base %s>(%s)" % (tag, "*" if arrow else "&", o)
            out = ["%s%s%s" % (ro, rdot, run % k1e)] + host(o, arrow)
            if r.random() < 0.25:
                out.append("%s%s%s" % (ro, rdot, run % k1))
            return out

        def block(head, lines):
            return [head] + ["  " + l for t in lines for l in t.split("\n")] + ["}"]

        if not many:
            o = objs[0]
            if style == "direct":
                return body(o, False, k1)
            if style == "objref":
                return ["%s &b = %s;" % (cls, o)] + body("b", False, k1)
            if style == "objptrs":
                if r.random() < 0.5:
                    return ["%s *p = &%s;" % (cls, o)] + body("p", True, k1)
                return ["%s *ptrs[1] = {&%s};" % (cls, o)] + body("ptrs[0]", True, k1)
            name = self.obj_helper(r.choice(["drive", "drivep"]))
            arg = o if name.startswith("%s_drive" % tag) and "drivep" not in name else "&" + o
            return ["%s(cc, %s, %d, %d, %d);" % (name, arg, N, k0, k1)] + host(o, False)
        ki = "(%d + static_cast<int>(i)) %% 3" % k1 if r.random() < 0.4 else str(k1)
        loop = "for (std::size_t i = 0; i < objs.size(); ++i) {"
        if style == "objfor":
            ref = r.choice(["auto &o", "%s &o" % cls])
            return block("for (%s : objs) {" % ref, body("o", False, k1))
        if style == "objindex":
            if r.random() < 0.3:
                j = r.randrange(len(objs))
                return body("objs[%d]" % j, False, k1)
            return block(loop, body("objs[i]", False, ki))
        if style == "objconst":
            return body(objs[r.randrange(len(objs))], False, k1)
        if style == "objref":
            return block(loop, ["%s &b = objs[i];" % r.choice([cls, "auto"])] + body("b", False, ki))
        if style == "objptrs":
            pre = []
            arr = ptrs
            if not arr:
                arr = "ptrs"
                pre = ["%s *ptrs[%d] = {%s};" % (cls, len(objs), ", ".join("&" + x for x in objs))]
            if r.random() < 0.5:
                return pre + block("for (%s *p : %s) {" % (cls, arr), body("p", True, k1))
            return pre + block("for (std::size_t i = 0; i < %d; ++i) {" % len(objs),
                               body("%s[i]" % arr, True, ki))
        kind = r.choice(["drive", "drivep", "stepall"])
        name = self.obj_helper(kind)
        if kind == "stepall":
            return ["%s(cc, objs, %d, %d, %d);" % (name, N, k0, k1)]
        if kind == "drive":
            return block("for (auto &o : objs) {", ["%s(cc, o, %d, %d, %d);" % (name, N, k0, k1)]
                         + host("o", False))
        src = "&objs[i]" if not ptrs or r.random() < 0.5 else "%s[i]" % ptrs
        return block(loop, ["%s(cc, %s, %d, %d, %s);" % (name, src, N, k0, ki)])

    def object_main(self, glob):
        """main of an `objects` or `nested` program: one local object, or
        (`objvector`) 1 to 3 in a std::vector, stepped by 1 to 3 computes
        with host code on them between computes; every object shows its
        buffers at the end."""
        r, tag, cls = self.r, self.tag, self.cls
        mb = []
        many = "objvector" not in self.avoid and r.random() < 0.6
        ptrs = None
        if many:
            n = r.randint(1, 3)
            mb.append(Line("std::vector<%s> objs;" % cls, removable=False))
            if r.random() < 0.5:
                mb.append(Line("objs.reserve(%d);" % n, removable=False))
            for _ in range(n):
                mb.append(Line("objs.emplace_back(%d);" % r.randint(0, 60), removable=False))
            objs = ["objs[%d]" % i for i in range(n)]
            if "objptrs" not in self.avoid and r.random() < 0.4:
                # Declared here if a step uses it (below).
                ptrs = "%s_all" % tag
                decl_at = len(mb)
        else:
            mb.append(Line("%s st(%d);" % (cls, r.randint(0, 60)), removable=False))
            objs = ["st"]
        # `objvloop`: the vector's computes run in a time loop too.
        vloop = many and self.pure_loop is not False and "objvloop" not in self.avoid
        self.vloop = vloop
        # `objfunction`: a std::function of a lambda capturing the objects by
        # reference, which host code between steps calls (`bumpfn`, when
        # host members may write) or which runs the steps itself (`stepfn`).
        xr = self.xr
        self.bumpfn = self.stepfn = None
        if "objfunction" not in self.avoid and xr.random() < 0.3:
            who = "objs[%d]" % xr.randrange(len(objs)) if many else "st"
            if self.objmode == "plain" and xr.random() < 0.6 and "objhost" not in self.avoid:
                self.bumpfn = "%s_bumpfn" % tag
                made = {"lambda": "[&](int v) { %s.bump(v); }" % who,
                        "functor": "%s_Poke{&%s, %d}" % (tag, who, self.yr.randint(0, 9)),
                        "poker": "%s.poker()" % who}[self.bumpkind]
                mb.append(Line("std::function<void(int)> %s = %s;" % (self.bumpfn, made)))
            else:
                self.stepfn = "%s_stepfn" % tag
                mb.append(Line("std::function<void(ferry::ComputeContext &, int)> %s =\n"
                               "    [&](ferry::ComputeContext &cc, int k) { %s.%s_run(cc, %d, 0, k); };"
                               % (self.stepfn, who, tag, self.N)))
        yr = self.yr
        # `objfnarg`: a compute helper given the std::function calls it
        # between two steps of an object.
        withfn = None
        if self.bumpfn and "objfnarg" not in self.avoid and yr.random() < 0.5:
            withfn = self.fresh("withfn")
            run = "o.%s_run(cc, %d, %%s);" % (tag, self.N)
            self.late.append(Func(withfn, (
                "FERRY_COMPUTE void %s(ferry::ComputeContext &cc, %s &o,\n"
                "    const std::function<void(int)> &f, int k) {" % (withfn, cls)),
                [Line(run % "0, k", removable=False), Line("f(k + 1);", removable=False),
                 Line(run % "k, 0", removable=False)]))
        ex = "%s_ex" % tag
        if self.extra:
            mb.append(Line("std::unique_ptr<%s_Base> %s = %s_make_extra(%d);"
                           % (tag, ex, tag, yr.randint(0, 16)), removable=False))
        seq_start = len(mb)
        quiet = self.pure_loop is not False and (vloop or not many)
        for c in range(r.randint(1, 3)):
            if c > 0 and r.random() < (0.15 if quiet else 0.6):
                h = self.obj_host(r.choice(objs), False)
                if h:
                    mb.append(Line(h))
            k0, k1 = r.choice([0, 0, 1, 2, 3]), r.choice([0, 1, 1, 2])
            steps = self.obj_steps(objs, many, ptrs, k0, k1)
            if self.stepfn and xr.random() < 0.6:
                steps.append("%s(cc, %d);" % (self.stepfn, xr.randint(0, 2)))
            if withfn and yr.random() < 0.6:
                steps.append("%s(cc, %s, %s, %d);" % (withfn, yr.choice(objs), self.bumpfn,
                                                      yr.randint(0, 2)))
            if self.extra:
                # Anywhere among the steps: the other class's compute, a
                # host write and a host read of it, each through the base.
                for call, p in (("%s_run(cc, %d, %d, %d)" % (tag, self.N, k0, k1), 0.7),
                                ("poke(%d)" % yr.randint(0, 99), 0.4), ("report(%d)" % c, 0.4)):
                    if yr.random() < p:
                        at = yr.randint(0, len(steps))
                        before = steps[at - 1].split("\n")[-1] if at else ""
                        ind = before[:len(before) - len(before.lstrip())]
                        ind += "  " if before.endswith("{") else ""
                        steps.insert(at, "%s%s->%s;" % (ind, ex, call))
            if r.random() < 0.3:
                # In a block: its names may be those of the first steps.
                more = self.obj_steps(objs, many, ptrs, r.choice([0, 1, 2]), r.choice([0, 1]))
                steps += ["{"] + ["  " + l for t in more for l in t.split("\n")] + ["}"]
            mb.append(Line("acc.compute([&](ferry::ComputeContext &cc) {\n%s\n});"
                           % "\n".join("  " + l for t in steps for l in t.split("\n"))))
        if self.pure_loop is not False and (vloop or not many):
            # A time loop over the object's computes (`pure`): with members
            # main may not name, a block holds the whole object (the
            # vector's elements, `objvloop`).
            seq = mb[seq_start:]
            del mb[seq_start:]
            mb.append(Compound(["for (int t = 0; t < %d; ++t) {" % self.pure_loop, seq, "}"],
                               kind="loop", loopvar="t", removable=False))
        if ptrs and any(ptrs in l for s in mb for l in s.lines("")):
            mb.insert(decl_at, Line("%s *%s[%d] = {%s};" % (
                cls, ptrs, len(objs), ", ".join("&" + o for o in objs)), removable=False))
        if many and r.random() < 0.5:
            mb.append(Line("for (std::size_t i = 0; i < objs.size(); ++i)\n"
                           "  objs[i].show(static_cast<int>(i));"))
        else:
            for i, o in enumerate(objs):
                mb.append(Line("%s.show(%d);" % (o, i)))
        if self.extra:
            mb.append(Line("%s->report(9);" % ex))
        if glob:
            mb.append(Line('fuzz_print("[%s] %s", %s);' % (tag, glob, glob)))
        mb.append(Line('fuzz_stats("%s");' % tag, removable=False))
        return mb

    # Declarations add views for the rest of the enclosing block.
    def two_views(self, sc):
        vs = self.writable(sc)
        plain = [v for v in vs if len(v.may) == 1]
        if len(set(v.ref for v in plain)) < 2:
            return None
        u = self.r.choice(plain)
        w = self.r.choice([v for v in plain if v.may != u.may])
        return u, w

    def condref(self, sc):
        uw = self.two_views(sc)
        if not uw:
            return None
        u, w = uw
        f, t = self.fresh("from"), self.fresh("to")
        c = self.cond(sc)
        pair = self.fresh("pair")
        sc.views.append(View(f, "&" + f, u.may | w.may, pair, 0))
        sc.views.append(View(t, "&" + t, u.may | w.may, pair, 1))
        return Line("auto &%s = (%s) ? %s : %s;\nauto &%s = (%s) ? %s : %s;"
                    % (f, c, u.ref, w.ref, t, c, w.ref, u.ref))

    def ptrpair(self, sc):
        uw = self.two_views(sc)
        if not uw:
            return None
        u, w = uw
        p, q = self.fresh("p"), self.fresh("q")
        pair = self.fresh("pair")
        sc.views.append(View("(*%s)" % p, p, u.may | w.may, pair, 0))
        sc.views.append(View("(*%s)" % q, q, u.may | w.may, pair, 1))
        sc.pairs.append(("ptr", p, q))
        return Line("ferry::Buffer<int> *%s = %s, *%s = %s;" % (p, u.ptr, q, w.ptr))

    def grid(self, sc):
        uw = self.two_views(sc)
        if not uw:
            return None
        u, w = uw
        g, cur = self.fresh("grid"), self.fresh("cur")
        pair = self.fresh("pair")
        sc.views.append(View("(*%s[%s])" % (g, cur), "%s[%s]" % (g, cur), u.may | w.may, pair, 0))
        sc.views.append(View("(*%s[1 - %s])" % (g, cur), "%s[1 - %s]" % (g, cur),
                             u.may | w.may, pair, 1))
        sc.pairs.append(("grid", cur, g))
        return Line("ferry::Buffer<int> *%s[2] = {%s, %s};\nint %s = 0;" % (g, u.ptr, w.ptr, cur))

    def flipref(self, sc):
        """`flipref`: two pointers swapped by a helper taking them by
        reference to pointer."""
        _, p, q = self.r.choice([pr for pr in sc.pairs if pr[0] == "ptr"])
        name = self.fresh("flip")
        self.hfuncs.append(Func(name, "static void %s(ferry::Buffer<int> *&x, "
                                      "ferry::Buffer<int> *&y) {" % name,
                                [Line("std::swap(x, y);")]))
        return Line("%s(%s, %s);" % (name, p, q))

    def ptrcompare(self, sc, budget):
        """`ptrcompare`: host code under `if (p != &a)` / `if (p == &b)`."""
        _, p, q = self.r.choice([pr for pr in sc.pairs if pr[0] == "ptr"])
        plain = [v for v in sc.views if len(v.may) == 1 and v.ptr.startswith("&")]
        if not plain:
            return None
        u = self.r.choice(plain)
        c = "%s %s %s" % (self.r.choice([p, q]), self.r.choice(["!=", "=="]), u.ptr)
        then = self.block(sc.child(), budget)
        return Compound(["if (%s) {" % c, then, "}"], "if")

    def localbuf(self, sc):
        t = self.fresh("tmp")
        init = self.r.choice(["(%s)" % sc.size, "(%s, %d)" % (sc.size, self.r.randint(0, 9)),
                              "(%d)" % self.N,
                              "{%s}" % ", ".join(str(self.r.randint(0, 99)) for _ in range(self.N))])
        sc.views.append(View(t, "&" + t, {t}))
        return Line("ferry::Buffer<int> %s%s;" % (t, init))

    # -- helpers -----------------------------------------------------------------
    def helper_body(self, view, readonly, returns_int):
        fn = FnCtx("helper", ["v"], readonly, not returns_int)
        sc = Scope([view], ["v"], "static_cast<int>(%s)" % view.member("size()"), fn)
        sc.depth = 1
        body = []
        if returns_int:
            fn.acc = "s"
            body.append(Line("int s = 0;", removable=False))
        for _ in range(self.r.randint(1, 3)):
            s = self.stmt(sc, 2)
            if s is not None:
                body.extend(s if isinstance(s, list) else [s])
        if returns_int:
            body.append(Line("return s;", removable=False))
        return body

    def helper_call(self, sc, kind):
        name = self.fresh("h")
        if kind == "chelper" or (kind == "opaque" and self.chance(0.4)):
            if not sc.views:
                return None
            v = self.r.choice(sc.views)
            x = View("x", "&x", {"x"}, const=True)
            body = self.helper_body(x, True, True)
            head = "static int %s(const ferry::Buffer<int> &x, int v) {" % name
            self.hfuncs.append(Func(name, head, body))
            callee = name
            if kind == "opaque":
                callee = self.fresh("fp")
                self.globals_fp.append("static int (*%s)(const ferry::Buffer<int> &, int) = %s;"
                                       % (callee, name))
            r = self.fresh("r")
            return [Line("int %s = %s(%s, %s);" % (r, callee, v.ref, self.small(sc))),
                    self.prn("helper", r)]
        vs = self.writable(sc)
        if not vs:
            return None
        v = self.r.choice(vs)
        readonly = self.chance(0.25)
        if kind == "helperptr":
            x = View("(*x)", "x", {"x"})
            head = "static void %s(ferry::Buffer<int> *x, int v) {" % name
            arg = v.ptr
        else:
            x = View("x", "&x", {"x"})
            head = "static void %s(ferry::Buffer<int> &x, int v) {" % name
            arg = v.ref
        body = self.helper_body(x, readonly, False)
        self.hfuncs.append(Func(name, head, body))
        callee = name
        if kind == "opaque":
            callee = self.fresh("fp")
            self.globals_fp.append("static void (*%s)(ferry::Buffer<int> &, int) = %s;" % (callee, name))
        return Line("%s(%s, %s);" % (callee, arg, self.small(sc)))

    def recursive_call(self, sc):
        vs = self.writable(sc)
        if not vs:
            return None
        name = self.fresh("rec")
        self.hfuncs.append(Func(name, "static void %s(ferry::Buffer<int> &x, int d) {" % name, [
            Line("if (d <= 0)\n  return;", removable=False),
            Line("x[static_cast<std::size_t>(d) %% x.size()] =\n"
                 "    (x[static_cast<std::size_t>(d) %% x.size()] + d) & %s;" % MASK),
            Line("%s(x, d - 1);" % name)]))
        return Line("%s(%s, %s + 1);" % (name, self.r.choice(vs).ref, self.small(sc)))

    def helper2_call(self, sc):
        """A helper given two buffers, which may be one: it only combines
        elements at the same index, so an alias changes nothing."""
        vs = self.writable(sc)
        if not vs:
            return None
        name = self.fresh("comb")
        self.hfuncs.append(Func(name, "static void %s(const ferry::Buffer<int> &src, "
                                      "ferry::Buffer<int> &dst) {" % name, [
            Line("for (std::size_t i = 0; i < dst.size(); ++i)\n"
                 "  dst[i] = (src[i] * %d + dst[i]) & %s;" % (self.r.randint(1, 5), MASK))]))
        return Line("%s(%s, %s);" % (name, self.r.choice(sc.views).ref, self.r.choice(vs).ref))

    def two_args(self, sc, allow_same):
        vs = self.writable(sc)
        if not vs:
            return None
        u = self.r.choice(vs)
        others = [w for w in vs if distinct(u, w)]
        if allow_same and (not others or self.chance(0.4)):
            return u, u, False
        if not others:
            return None
        return u, self.r.choice(others), True

    def callee_body(self, kind, dist, sc, xy=None):
        fn = FnCtx(kind, ["k"])
        pair = self.fresh("pair") if dist else None
        xr, xp, yr, yp = ("x", "&x", "y", "&y") if xy is None else \
            (xy[0].ref, xy[0].ptr, xy[1].ref, xy[1].ptr)
        x = View(xr, xp, {"x", "y"} if not dist else {"x"}, pair, 0)
        y = View(yr, yp, {"x", "y"} if not dist else {"y"}, pair, 1)
        inner = Scope([x, y], ["k"], "n", fn)
        inner.depth = 1
        body = []
        for _ in range(self.r.randint(1, 3)):
            s = self.stmt(inner, 2)
            if s is not None:
                body.extend(s if isinstance(s, list) else [s])
        if not any("cc.dispatch" in l for s in body for l in s.lines("")) and kind == "wrapper":
            d = self.dispatch(inner)
            if d:
                body.append(d)
        return body

    def wrapper_call(self, sc):
        a = self.two_args(sc, False)
        if not a:
            return None
        u, w, dist = a
        name = self.fresh("launch")
        head = ("static void %s(ferry::ComputeContext &cc, ferry::Buffer<int> &x,\n"
                "    ferry::Buffer<int> &y, int n, int k) {" % name)
        self.hfuncs.append(Func(name, head, self.callee_body("wrapper", dist, sc)))
        call = Line("%s(cc, %s, %s, %s, %s);" % (name, u.ref, w.ref, sc.size, self.small(sc)))
        if self.chance(0.6):
            i = self.fresh("i")
            return Compound(["for (int %s = 0; %s < %s; ++%s) {" % (i, i, self.r.choice(sc.fn.trips), i),
                             [call], "}"], "for", loopvar=i)
        return call

    def struct_call(self, sc):
        """`structhelper`: a dispatching helper given a struct that holds two
        buffers, by reference or by pointer."""
        a = self.two_args(sc, False)
        if not a:
            return None
        u, w, dist = a
        st, name = self.fresh("Pair"), self.fresh("pairrun")
        byptr = self.chance(0.5)
        if byptr:
            members = "ferry::Buffer<int> *x;\nferry::Buffer<int> *y;"
            xr, xp, yr, yp = "(*s.x)", "s.x", "(*s.y)", "s.y"
            init = "%s, %s" % (u.ptr, w.ptr)
        else:
            members = "ferry::Buffer<int> &x;\nferry::Buffer<int> &y;"
            xr, xp, yr, yp = "s.x", "&s.x", "s.y", "&s.y"
            init = "%s, %s" % (u.ref, w.ref)
        self.hfuncs.append(Func(st, "struct %s {" % st, [Line(members, removable=False)], "};"))
        head = ("static void %s(ferry::ComputeContext &cc, const %s &s, int n, int k) {"
                % (name, st))
        body = self.callee_body("wrapper", dist, sc, (View(xr, xp, {"x"}), View(yr, yp, {"y"})))
        self.hfuncs.append(Func(name, head, body))
        if self.chance(0.5):
            return Line("%s(cc, %s{%s}, %s, %s);" % (name, st, init, sc.size, self.small(sc)))
        v = self.fresh("pr")
        return Line("%s %s{%s};\n%s(cc, %s, %s, %s);" % (st, v, init, name, v, sc.size,
                                                          self.small(sc)))

    def sub_call(self, sc):
        a = self.two_args(sc, True)
        if not a:
            return None
        u, w, dist = a
        name = self.fresh("sub")
        head = ("FERRY_COMPUTE void %s(ferry::ComputeContext &cc, ferry::Buffer<int> &x,\n"
                "    ferry::Buffer<int> &y, int n, int k) {" % name)
        self.hfuncs.append(Func(name, head, self.callee_body("sub", dist, sc)))
        return Line("%s(cc, %s, %s, %s, %s);" % (name, u.ref, w.ref, sc.size, self.small(sc)))

    # -- the program -------------------------------------------------------------
    def program(self):
        r = self.r
        self.W, self.H = r.randint(2, 8), r.randint(2, 5)
        self.N = self.W * self.H
        self.globals_fp = []
        nbuf = r.randint(2, 4)
        bufs = "abcd"[:nbuf]
        self.bufs = bufs
        # The form is drawn apart, so that the programs of the plain form are
        # those the same seed gave before the other forms existed.
        fr = random.Random("ferry-fuzz-form:%s:%s" % (self.seed, self.index_))
        forms = [f for f in ("members", "vector", "objects", "nested") if f not in self.avoid]
        if self.forced_form:
            self.form = self.forced_form
        elif forms and fr.random() < 0.35:
            self.form = fr.choice(forms)
        if self.form in ("objects", "nested"):
            self.class_setup()
        fn = FnCtx("compute", ["k0", "k1"])
        # Sometimes main passes one buffer as both `a` and `b`: the program is
        # then generated as if they may be the same.
        alias = nbuf >= 3 and r.random() < 0.2 and "alias" not in self.avoid
        alias = alias and self.form == "params"
        views = [View(b, "&" + b, {b, "ab"} if alias and b in "ab" else {b}) for b in bufs]
        vec_decls = []
        if self.form in CLASS_FORMS:
            views = self.member_views()
        elif self.form == "vector":
            views = []
            for i, b in enumerate(bufs):
                ref = r.choice(["vs[%d]" % i, "vs.at(%d)" % i] +
                               (["vs.front()"] if i == 0 else []) +
                               (["vs.back()"] if i == nbuf - 1 else []))
                if r.random() < 0.3:
                    e = "%s_%s" % (self.tag, b)
                    vec_decls.append(Line("ferry::Buffer<int> &%s = %s;" % (e, ref),
                                          removable=False))
                    ref = e
                views.append(View(ref, "&" + ref, {b}))
            if r.random() < 0.5:
                # An element whose index only the run knows: any of them.
                ref = "vs[static_cast<std::size_t>(k0) % vs.size()]"
                views.append(View(ref, "&" + ref, set(bufs)))
        # Global buffers (`global`): one the compute function names itself,
        # and a global pointer main points at one of the buffers before each
        # compute (PolyBench's global cl_mem objects).
        glob = cur = None
        if "global" not in self.avoid and r.random() < 0.25:
            glob = "%s_g" % self.tag
            self.globals_fp.append("static ferry::Buffer<int> %s(%d, %d);"
                                   % (glob, self.N, r.randint(0, 9)))
            views.append(View(glob, "&" + glob, {glob}))
        if "global" not in self.avoid and r.random() < 0.2 and \
                self.form not in ("objects", "nested"):  # main cannot name their buffers
            cur = "%s_cur" % self.tag
            self.globals_fp.append("static ferry::Buffer<int> *%s = nullptr;" % cur)
            views.append(View("(*%s)" % cur, cur, set().union(*(v.may for v in views))))
        sc = Scope(views, ["k0", "k1"], "n", fn)
        body = list(vec_decls)
        if r.random() < 0.5:
            fn.acc = "acc"
            body.append(Line("int acc = 0;"))
        # A compute function of dispatches alone (`pure`), as a time step
        # is: main runs it in a loop of trips, whose buffers only kernels
        # use there, so the loop may leave them on the device until it ends
        # (ferry::HomeAtScopeEnd). Drawn apart, as the form is.
        pr = random.Random("ferry-fuzz-pure:%s:%s" % (self.seed, self.index_))
        pure = "pure" not in self.avoid and \
            self.form in ("params", "members", "objects", "nested") and pr.random() < 0.3
        # (For objects: main's computes on its one object run in a loop;
        # drawn only there, so the other forms' programs stay as they were.)
        self.pure_loop = False
        if pure and self.form in ("objects", "nested") and pr.random() < 0.7:
            self.pure_loop = pr.randint(0, 4)
        budget = r.randint(4, 10)
        while not pure and len(body) < budget:
            s = self.stmt(sc, 4)
            if s is not None:
                body.extend(s if isinstance(s, list) else [s])
        for _ in range(pr.randint(1, 3) if pure else 0):
            d = self.dispatch(sc)
            if d:
                body.append(d)
        if not any("cc.dispatch" in l or "launch" in l or "_sub" in l
                   for s in body for l in s.lines("")):
            # At the end: a view declared on the way is in scope there.
            d = self.dispatch(sc)
            if d:
                body.append(d)
        if fn.acc:
            body.append(self.prn("acc", "acc"))
        name = "%s_run" % self.tag
        params = ", ".join("ferry::Buffer<int> &%s" % b for b in bufs)
        if self.form == "vector":
            params = "std::vector<ferry::Buffer<int>> &vs"
        head = "FERRY_COMPUTE void %s(ferry::ComputeContext &cc, %s,\n    int n, int k0, int k1) {" % (
            name, params)
        tail = "}"
        inits = {b: r.choice(["(%d)" % self.N, "(%d, %d)" % (self.N, r.randint(0, 9))])
                 for b in bufs}
        # The computes in a function main hands its buffers to by reference
        # (`byref`), in a loop of trips, called once or twice: its buffers
        # are the caller's, whose device copies it forgets at its start, and
        # with `alias` main may pass one buffer as two of them. For the
        # members form, the object by reference or by pointer (`pointer`:
        # `st->u`), or the loop a member function of the class
        # (`pK_State::steps`).
        byref = None
        if "byref" not in self.avoid and self.form in ("params", "members") and \
                r.random() < 0.3:
            byref = "function"
            if self.form == "members":
                byref = r.choice(["method", "method", "function", "pointer"])
        if self.form == "members":
            # The class owns its buffers; the compute function and its
            # helpers are members, reaching the buffers through `this`.
            cls = "%s_State" % self.tag
            lines = ["struct %s {" % cls]
            lines += ["  ferry::Buffer<int> %s = ferry::Buffer<int>%s;" % (b, inits[b]) for b in bufs]
            if byref == "method":
                lines.append("  void steps(ferry::Accelerator &acc, int trips);")
            for f in self.mfuncs:
                lines += ["  " + l if l else l for l in f.lines()]
            head = "\n".join(lines) + "\nFERRY_COMPUTE void %s(ferry::ComputeContext &cc,\n    int n, int k0, int k1) {" % name
            tail = "}\n};"
            decls = lines[:1 + len(bufs) + (byref == "method")]
            decls += ["  " + declaration(f.head) for f in self.mfuncs]
            decls.append("  FERRY_COMPUTE void %s(ferry::ComputeContext &cc, int n, int k0, int k1);"
                         % name)
            self.split_types = ["\n".join(decls + ["};"])]
            self.split_head = ("FERRY_COMPUTE void %s::%s(ferry::ComputeContext &cc,\n"
                               "    int n, int k0, int k1) {" % (cls, name))
            self.split_defs = [outlined(f, cls) for f in self.mfuncs]
        elif self.form in ("objects", "nested"):
            head, tail = self.class_compute(name, inits)
        compute = Func(name, head, body, tail, kind="compute")
        if self.form in ("objects", "nested"):
            main = Func("%s_main" % self.tag, "static void %s_main(ferry::Accelerator &acc) {"
                        % self.tag, self.object_main(glob), kind="main")
            return Program(self.tag, self.globals + self.globals_fp, self.kfuncs,
                           [k.text for k in self.kernels], self.hfuncs, compute, main,
                           self.types, self.late, self.split_pieces(), self.hidden,
                           self.after_class)
        # How main names each buffer.
        if self.form == "members":
            mname = {b: "st.%s" % b for b in bufs}
        elif self.form == "vector":
            mname = {b: "vs[%d]" % i for i, b in enumerate(bufs)}
        else:
            mname = {b: b for b in bufs}

        # main: buffers, computes with different trip counts, host writes
        # between them, then every buffer printed.
        mb = []
        if self.form == "members":
            mb.append(Line("%s_State st;" % self.tag, removable=False))
        elif self.form == "vector":
            mb.append(Line("std::vector<ferry::Buffer<int>> vs;", removable=False))
        for b in bufs:
            init = inits[b]
            if self.form == "params":
                mb.append(Line("ferry::Buffer<int> %s%s;" % (b, init), removable=False))
            elif self.form == "vector":
                mb.append(Line("vs.emplace_back%s;" % init, removable=False))
            if r.random() < 0.7:
                mb.append(Line("for (int i = 0; i < %d; ++i)\n  %s[i] = (i * %d + %d) & 0xFF;"
                               % (self.N, mname[b], r.randint(1, 13), r.randint(0, 50))))
        # Buffers main does not print at the end (`deadbuf`): no exit copy
        # is needed unless something still sees them, a pointer to their
        # elements or a lambda made before the computes.
        unprinted, seen_by = set(), {}
        if "deadbuf" not in self.avoid and self.form == "params" and r.random() < 0.4:
            unprinted = set(r.sample(bufs, r.randint(1, nbuf - 1)))
            for b in sorted(unprinted):
                how = r.choice(["gone", "gone", "view", "lambda"])
                if how == "view":
                    mb.append(Line("const int *%s_view_%s = %s.data();" % (self.tag, b, b)))
                elif how == "lambda":
                    mb.append(Line('auto %s_show_%s = [&] { fuzz_print("[%s] %s", %s); };'
                                   % (self.tag, b, self.tag, b, b)))
                seen_by[b] = how
        # A spare buffer (`spare`) that some computes get in place of one
        # of the program's: that one is then untouched there, and its device
        # copy may be carried through to a later compute that keeps it.
        spare = None
        if "spare" not in self.avoid and self.form == "params" and not alias and \
                r.random() < 0.35:
            spare = "%s_spare" % self.tag
            mb.append(Line("ferry::Buffer<int> %s(%d, %d);" % (spare, self.N, r.randint(0, 9)),
                           removable=False))
        main_body, steps, outer = mb, [], mname
        if byref:
            mb = steps
            if byref == "method":
                mname = {b: b for b in bufs}
            elif byref == "pointer":
                mname = {b: "st->%s" % b for b in bufs}
        seq_start = len(mb)
        for c in range(r.randint(1, 4 if spare else 3)):
            if c > 0 and r.random() < 0.5:
                b = r.choice(bufs)
                mb.append(Line("%s[%d] = %d;" % (mname[b], r.randrange(self.N), r.randint(0, 99))))
            perm = list(bufs)
            if alias:
                if r.random() < 0.6:
                    perm[1] = perm[0]
            elif self.form == "params" and r.random() < 0.3:
                r.shuffle(perm)
            if spare and r.random() < 0.6:
                perm[r.randrange(len(perm))] = spare
            k0, k1 = r.choice([0, 0, 1, 2, 3]), r.choice([0, 1, 1, 2])
            if cur:
                mb.append(Line("%s = &%s;" % (cur, mname[r.choice(bufs)]), removable=False))
            call = "%s(cc, %s, %d, %d, %d);" % (name, ", ".join(perm), self.N, k0, k1)
            if self.form == "members":
                call = "%s%s(cc, %d, %d, %d);" % (
                    {"method": "", "pointer": "st->"}.get(byref, "st."), name, self.N, k0, k1)
            elif self.form == "vector":
                call = "%s(cc, vs, %d, %d, %d);" % (name, self.N, k0, k1)
            # A compute function run through a function pointer (`fnptr`),
            # twice or three times in one compute with host writes between:
            # Ferry plans it as an entry it cannot see called, whose runs
            # after the first start with device copies the run-time state
            # calls current. Drawn apart, so that the programs without it
            # stay as they were.
            fpr = random.Random("ferry-fuzz-fnptr:%s:%s:%d" % (self.seed, self.index_, c))
            fnptr = "fnptr" not in self.avoid and self.form in ("params", "vector") and \
                fpr.random() < 0.15
            if fnptr:
                fp = "%s_fp%d" % (self.tag, c)
                runs = []
                for t in range(fpr.randint(2, 3)):
                    if t > 0 and fpr.random() < 0.7:
                        b = mname[fpr.choice(bufs)]
                        runs.append("%s[%d] += %d;" % (b, fpr.randrange(self.N), fpr.randint(1, 99)))
                    runs.append(call.replace(name + "(", fp + "(", 1))
                mb.append(Line("acc.compute([&](ferry::ComputeContext &cc) {\n  auto *%s = &%s;\n  %s\n});"
                               % (fp, name, "\n  ".join(runs))))
            elif "lambdabody" not in self.avoid and r.random() < 0.3:
                # The lambda does more than call the compute function: it is
                # planned itself (a loop of calls, host code between them).
                b, i = r.choice(bufs), r.randrange(self.N)
                b = mname[b]
                call = r.choice([
                    "for (int r = 0; r < %d; ++r)\n    %s" % (r.randint(0, 3), call),
                    "%s\n  %s[%d] = %d;\n  %s" % (call, b, i, r.randint(0, 99), call),
                    '%s\n  std::printf("[%s] peek %%d\\n", %s[%d]);\n  %s'
                    % (call, self.tag, b, i, call),
                ])
                mb.append(Line("acc.compute([&](ferry::ComputeContext &cc) {\n  %s\n});" % call))
            else:
                mb.append(Line("acc.compute([&](ferry::ComputeContext &cc) { %s });" % call))
        if pure and not byref and pr.random() < 0.7:
            # main's computes as a time loop (its host writes between them,
            # if any, stay in it).
            seq = mb[seq_start:]
            del mb[seq_start:]
            mb.append(Compound(["for (int t = 0; t < %d; ++t) {" % pr.randint(0, 4), seq, "}"],
                               kind="loop", loopvar="t", removable=False))
        late = []
        if byref:
            mb, mname = main_body, outer
            owned = list(bufs) + ([spare] if spare else [])
            args = list(owned)
            if alias and r.random() < 0.6:
                args[1] = args[0]
            name_steps = "%s_steps" % self.tag
            if byref == "pointer":
                params, args = "%s_State *st" % self.tag, ["&st"]
            elif self.form == "members":
                params, args = "%s_State &st" % self.tag, ["st"]
            else:
                params = ", ".join("ferry::Buffer<int> &%s" % b for b in owned)
            loop = [Compound(["for (int t = 0; t < trips; ++t) {", steps, "}"],
                             kind="loop", loopvar="t", removable=False)]
            if byref == "method":
                late.append(Func(name_steps, "void %s_State::steps(ferry::Accelerator &acc, int trips) {"
                                 % self.tag, loop))
            else:
                late.append(Func(name_steps, "static void %s(ferry::Accelerator &acc, %s,\n    int trips) {"
                                 % (name_steps, params), loop))
            for k in range(r.randint(1, 2)):
                if k > 0:
                    b = r.choice(bufs)
                    mb.append(Line("%s[%d] = %d;" % (mname[b], r.randrange(self.N), r.randint(0, 99))))
                if byref == "method":
                    mb.append(Line("st.steps(acc, %d);" % r.randint(0, 3), removable=False))
                else:
                    mb.append(Line("%s(acc, %s, %d);" % (name_steps, ", ".join(args),
                                                          r.randint(0, 3)), removable=False))
        for b in bufs:
            how = seen_by.get(b)
            if how == "view":
                mb.append(Line('std::printf("[%s] view %s %%d\\n", %s_view_%s[%d]);'
                               % (self.tag, b, self.tag, b, r.randrange(self.N))))
            elif how == "lambda":
                mb.append(Line("%s_show_%s();" % (self.tag, b)))
            elif b not in unprinted:
                mb.append(Line('fuzz_print("[%s] %s", %s);' % (self.tag, b, mname[b])))
        if glob:
            mb.append(Line('fuzz_print("[%s] %s", %s);' % (self.tag, glob, glob)))
        mb.append(Line('fuzz_stats("%s");' % self.tag, removable=False))
        main = Func("%s_main" % self.tag, "static void %s_main(ferry::Accelerator &acc) {" % self.tag,
                    mb, kind="main")
        return Program(self.tag, self.globals + self.globals_fp, self.kfuncs,
                       [k.text for k in self.kernels], self.hfuncs, compute, main,
                       late=late, split=self.split_pieces())


def declaration(head):
    """`void f(int v) const {` -> `void f(int v) const;`"""
    return head[:head.rindex("{")].rstrip() + ";"


def outlined(f, cls):
    """A member function Func defined out of its class `cls`."""
    head = f.head.replace("%s(" % f.name, "%s::%s(" % (cls, f.name), 1)
    return Func(f.name, head, f.body, f.tail, f.kind)


def outlined_text(text, cls):
    """(declaration, out-of-class definition text) of a member function
    written as text, its body from the first `{`."""
    at = text.index("{")
    name = re.findall(r"(\w+)\(", text[:at])[-1]
    head = text[:at].rstrip()
    return head + ";", text.replace("%s(" % name, "%s::%s(" % (cls, name), 1)


class Program:
    def __init__(self, tag, globals_, kfuncs, kernels, hfuncs, compute, main, types=(),
                 late=(), split=None, hidden=(), after_class=()):
        self.tag = tag
        # (header types, compute head, member definitions) for render_split,
        # or None: a free compute function, declared in the header.
        self.split = split
        self.types = list(types)  # text: structs and classes the helpers name
        self.late = list(late)    # Func: helpers that name the compute's class
        # text: what only the other source of a split program sees (kernels,
        # a class, its factory), after the types in one file
        self.hidden = list(hidden)
        self.after_class = list(after_class)  # text: types naming the class
        self.globals = globals_
        self.kfuncs = kfuncs
        self.kernels = kernels
        self.hfuncs = hfuncs
        self.compute = compute
        self.main = main

    def functions(self):
        return self.hfuncs + [self.compute] + self.late + [self.main]

    def text(self):
        host = []
        for f in self.hfuncs:
            host.extend(f.lines() + [""])
        # A function pointer's initialiser names its helper: helpers first.
        out = ["// ---- program %s" % self.tag]
        out += [g for g in self.globals if g.startswith("#define")]
        for t in self.kfuncs + self.kernels + self.types + self.hidden:
            out += t.split("\n") + [""]
        for f in self.hfuncs:
            out += f.lines() + [""]
        out += [g for g in self.globals if not g.startswith("#define")]
        out += self.compute.lines() + [""]
        for t in self.after_class:
            out += t.split("\n") + [""]
        for f in self.late:
            out += f.lines() + [""]
        out += self.main.lines() + [""]
        return "\n".join(out)


    def split_parts(self):
        """(header, other source, main source) lines of the program laid out
        over two Ferry sources: the types and declarations in the header;
        kernels, helpers, the compute function and the member functions in
        the other source; the functions that name the class in either, and
        main in the main source. Global buffers main names are defined in the other
        source and declared `extern` in the header."""
        marker = "// ---- program %s" % self.tag
        head = [marker] + [g for g in self.globals if g.startswith("#define")]
        types, compute_head, defs = self.split or (self.types, None, [])
        for t in list(types) + self.after_class:
            head += t.split("\n") + [""]
        other = [marker]
        for t in self.kfuncs + self.kernels + self.hidden:
            other += t.split("\n") + [""]
        for f in self.hfuncs:
            other += f.lines() + [""]
        for g in self.globals:
            if g.startswith("#define"):
                continue
            m = re.match(r"static (ferry::Buffer<int> \*?)(%s_(?:g|cur))\b" % self.tag, g)
            if m:
                head.append("extern %s%s;" % m.groups())
                g = g[len("static "):]
            other.append(g)
        if compute_head is None:
            head.append(declaration(self.compute.head))
            other += self.compute.lines() + [""]
        else:
            other += Func(self.compute.name, compute_head, self.compute.body).lines() + [""]
        for f in defs:
            other += (f.lines() if isinstance(f, Func) else f.split("\n")) + [""]
        main = [marker]
        for f in self.late:
            # Half of them (by name) in the other source too, declared in
            # the header: a time loop or a helper given the object defined
            # beside the compute it calls.
            if random.Random("ferry-fuzz-late:%s" % f.name).random() < 0.5:
                if f.head.startswith("static "):
                    f = Func(f.name, f.head[len("static "):], f.body, f.tail, f.kind)
                if "::" not in f.head.split("(")[0]:
                    head.append(declaration(f.head))
                other += f.lines() + [""]
            else:
                main += f.lines() + [""]
        main += self.main.lines() + [""]
        return head + [""], other, main


PRELUDE = """\
// Generated by test/fuzz (seed %(seed)s, programs %(first)d..%(last)d): every
// program prints tagged lines; the reference execution is the oracle.
#include <ferry/ferry.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <numeric>
#include <utility>
#include <vector>

static void fuzz_print(const char *tag, const ferry::Buffer<int> &b) {
  long long sum = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    sum = (sum * 31 + b[i]) %% 1000000007;
  std::printf("%%s:", tag);
  for (std::size_t i = 0; i < b.size() && i < 8; ++i)
    std::printf(" %%d", b[i]);
  std::printf(" check=%%lld\\n", sum);
}

// Per-program transfer statistics (the process's FERRY_STATS holds only the
// sum): the counters' growth since the previous program, appended to the
// file FERRY_FUZZ_STATS names.
static void fuzz_stats(const char *tag) {
  static ferry::Statistics last;
  const ferry::Statistics now = ferry::statistics();
  if (const char *path = std::getenv("FERRY_FUZZ_STATS")) {
    if (std::FILE *f = std::fopen(path, "a")) {
      std::fprintf(f, "%%s %%llu %%llu %%llu\\n", tag,
                   static_cast<unsigned long long>(now.toDeviceBytes - last.toDeviceBytes),
                   static_cast<unsigned long long>(now.fromDeviceBytes - last.fromDeviceBytes),
                   static_cast<unsigned long long>(now.dispatches - last.dispatches));
      std::fclose(f);
    }
  }
  last = now;
}

"""


def generate(seed, index, avoid=(), form=None):
    """form: a program form every program takes (params, members, vector,
    objects, nested), or None for the default mix."""
    return Gen(seed, index, avoid, form).program()


def render_file(seed, programs):
    idx = [int(p.tag[1:]) for p in programs]
    out = PRELUDE % {"seed": seed, "first": min(idx), "last": max(idx)}
    for p in programs:
        out += p.text() + "\n"
    out += "int main() {\n  ferry::Accelerator acc;\n"
    for p in programs:
        out += "  %s_main(acc);\n" % p.tag
    out += "  return 0;\n}\n"
    return out


SPLIT_SUFFIXES = (".h", "_b.cpp", ".cpp")


def render_split(seed, programs, stem):
    """The programs over two Ferry sources and a header (docs/fuzz.md,
    `--split`): {suffix: text} for stem.h, stem_b.cpp and stem.cpp."""
    parts = [p.split_parts() for p in programs]
    idx = [int(p.tag[1:]) for p in programs]
    prelude = PRELUDE % {"seed": seed, "first": min(idx), "last": max(idx)}
    header = "#pragma once\n" + prelude + "\n".join(l for h, _, _ in parts for l in h)
    include = prelude.split("#include")[0] + '#include "%s.h"\n\n' % stem
    other = include + "\n".join(l for _, o, _ in parts for l in o)
    main = include + "\n".join(l for _, _, m in parts for l in m)
    main += "\nint main() {\n  ferry::Accelerator acc;\n"
    for p in programs:
        main += "  %s_main(acc);\n" % p.tag
    main += "  return 0;\n}\n"
    return {".h": header, "_b.cpp": other, ".cpp": main}


def render(seed, programs, stem, split=False):
    """One file's text, or {suffix: text} of the split layout."""
    return render_split(seed, programs, stem) if split else render_file(seed, programs)
