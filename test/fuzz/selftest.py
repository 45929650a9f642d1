#!/usr/bin/env python3
"""Checks of the fuzzer itself: a fuzzer that cannot see a difference, or
whose programs never use a form, passes while finding nothing."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from ferryfuzz import driver, gen, mutate, reduce  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


# Deterministic: a seed and an index name one program.
a = gen.generate("s", 3).text()
check(a == gen.generate("s", 3).text(), "the same seed and index give the same program")
check(a != gen.generate("t", 3).text(), "another seed gives another program")

# Every form of the list shows up in a couple of hundred programs.
texts = "\n".join(gen.generate("cover", i).text() for i in range(200))
forms = {
    "zero-trip loop": r"for \(int \w+ = 0; \w+ < k[01]; ",
    "while": r"while \(\w+ < ", "do-while": r"\} while \(", "for (;;)": r"for \(;;\)",
    "branch on buffer data": r"if \(\S+\[[^]]+\] % \d == \d\)",
    "pointer swap": r"std::swap\(\w+, \w+\)",
    "conditional reference": r"auto &\w+ = \(.*\) \? \w+ : \w+;",
    "helper by &": r"static void \w+\(ferry::Buffer<int> &x",
    "helper by const&": r"static int \w+\(const ferry::Buffer<int> &x",
    "helper by pointer": r"static void \w+\(ferry::Buffer<int> \*x",
    "call through a function pointer": r"static void \(\*\w+\)\(ferry::Buffer<int> &",
    "partial range": r"ferry::Range\(n (- 1|/ 2)\)",
    "2-D range": r"ferry::Range\(\S+, \d+\)",
    "kernel writing part": r"if \(kc\.x (< lim|% 2 == 0)\)",
    "compute calling compute": r"FERRY_COMPUTE void p\d+_sub",
    "same buffer twice": r"p\d+_sub\d+\(cc, (\w+), \1,",
    "launch wrapper in a loop": r"\{\n\s+p\d+_launch\d+\(cc",
    "several computes": r"(acc\.compute\(.*\n)(.*\n)?\s+acc\.compute", "std::fill": r"std::fill\(",
    "std::iota": r"std::iota\(", "std::copy": r"std::copy\(", "std::copy_n": r"std::copy_n\(",
    "range-for": r"for \(int &?\w+ : ", "early return": r"return;",
    "break": r"break;", "continue": r"continue;", "array of buffer pointers":
    r"ferry::Buffer<int> \*\w+\[2\] = \{", "flipping index": r"(\w+) = 1 - \1;",
    "macro in a scalar argument": r"n \* P\d+_NV", "p->begin()": r"\w+->begin\(\)",
    "write then read in a kernel": r"b\d\[i\] = 0;\n\s+for \(int t",
    "kernel calling functions": r"static int p\d+_(mix|get)\d+",
    "FERRY_WO": r"FERRY_WO int", "FERRY_RO": r"FERRY_RO ", "FERRY_RW": r"FERRY_RW int",
    "local buffer": r"ferry::Buffer<int> p\d+_tmp\d+",
    "3-D range": r"ferry::Range\(\d+, 1, \d+\)",
    "one buffer as two compute parameters": r"_run\(cc, a, a,",
    "recursive helper": r"(p\d+_rec\d+)\(x, d - 1\)",
    "helper given two buffers": r"static void p\d+_comb\d+\(const ferry::Buffer<int> &src",
    "std::copy from a std::vector": r"std::copy\(p\d+_vec\d+\.begin\(\), p\d+_vec\d+\.end\(\)",
    "kernel store through a local pointer": r"int \*p\d+ = b\d \+ i;\n\s+(if .*\n\s+)?\*p\d+ = v;",
    "pointer comparison": r"if \(p\d+_[pq]\d+ [!=]= &\w+\)",
    "pointers swapped by a helper by reference": r"static void p\d+_flip\d+\(ferry::Buffer<int> \*&x",
    "helper given a struct of buffers": r"const (p\d+_Pair\d+) &s.*\n(.*\n)*.*\1\{",
    "fill whose value reads the target": r"std::fill\((\w+)\.begin\(\), \1\.end\(\), \(\1\[",
    "FERRY_WO columns": r"FERRY_WO int \*b0.*\n\s+for \(int r = 0; r < \d+; \+\+r\)",
    "2-D grid store": r"b0\[(y \* w \+ x|x \+ y \* w|w \* y \+ x)\]",
    "grid rows in a loop": r"b0\[(i \+ j \* w|j \* w \+ i|w \* j \+ i)\]",
    "a row per work-item": r"b0\[(r \* w \+ j|j \+ r \* w|w \* r \+ j)\]",
    "volume walked by planes": r"c \+= (xy|nx \* ny|ny \* nx);",
    "a counted host loop": r"for \(int (\w+_ci\d+) = 0; \1 < ",
    "a store at element 0": r"\[0\] = ",
    "a copy from a pointer range": r"std::copy\((\w+_src\d+), \1 \+ ",
    "a running index over nested loops": r"int (p\d+_idx\d+) = 0;\n\s*for \(int (p\d+_row\d+) = 0; \2 <=? [^;]+; \+\+\2\)\n\s+for \(int (p\d+_col\d+) = 0;",
    "a buffer main never uses again": r"_view_\w+ = \w+\.data\(\);",
    "a lambda that shows a buffer later": r"auto p\d+_show_\w+ = \[&\]",
    "a global buffer named by the compute function": r"static ferry::Buffer<int> (p\d+_g)\(\d+, \d\);(.*\n)*.*\1[\[.,)]",
    "a global buffer pointer set by main": r"(p\d+_cur) = &\w;\n\s+acc\.compute",
    "a loop of calls in the compute lambda": r"\{\n\s+for \(int r = 0; r < \d; \+\+r\)\n\s+p\d+_run\(cc",
    "host code between calls in the compute lambda": r"_run\(cc, .*\);\n\s+(std::printf\(\"\[p\d+\] peek|\w+\[\d+\] = \d+;)\n\s+p\d+_run\(cc",
    "a class owning its buffers, a member compute function": r"struct p\d+_State \{\n(.*\n)*FERRY_COMPUTE void p\d+_run",
    "a member buffer through this": r"this->[a-d]\b",
    "a member helper on the host": r"void p\d+_mh\d+\(int v\)",
    "a dispatching member helper": r"void p\d+_mlaunch\d+\(ferry::ComputeContext &cc",
    "a compute called on an object": r"st\.p\d+_run\(cc",
    "a vector of buffers": r"std::vector<ferry::Buffer<int>> &vs",
    "element access": r"vs\.at\(\d\)|vs\.front\(\)|vs\.back\(\)",
    "a reference bound to an element": r"ferry::Buffer<int> &p\d+_[a-d] = vs",
    "an element whose index only the run knows": r"vs\[static_cast<std::size_t>\(k0\) % vs\.size\(\)\]",
    "levels loop": r"vs\[p\d+_l\d+ \+ 1\]",
    "range-for over the container": r"for \((const )?auto &\w+ : vs\)",
    "a class owning its buffers privately": r"\n private:\n  ferry::Buffer<int> [a-d]_;",
    "a member compute defined after its class": r"FERRY_COMPUTE void (p\d+_(Body|Sim))::p\d+_run\(",
    "objects in a vector stepped by range-for": r"for \((auto|p\d+_(Body|Sim)) &o : objs\) \{\n\s+o\.p\d+_run\(cc",
    "objects stepped by index": r"objs\[i\]\.p\d+_run\(cc",
    "an object through a reference bound first": r"(auto|p\d+_(Body|Sim)) &b = objs\[i\];\n\s+b\.p\d+_run\(cc",
    "an array of object pointers": r"p\d+_(Body|Sim) \*(ptrs|p\d+_all)\[\d\] = \{&objs\[0\]",
    "a single local object stepped": r"p\d+_(Body|Sim) st\(\d+\);\n\s+acc\.compute\(.*\n\s+(st|b|p|ptrs\[0\])(\.|->)p\d+_run",
    "a host member between steps": r"_run\(cc, .*\);\n\s+\S+(\.|->)(bump\(\d+\)|sum\(\))",
    "a host member between computes": r"\}\);\n\s+\S+\.(bump\(\d+\)|sum\(\))",
    "a struct of two buffers in the class": r"struct Grid \{\n\s+ferry::Buffer<int> cur",
    "a struct of two buffers a member": r"struct p\d+_Grid \{\n(.*\n)*?\s+p\d+_Grid grid_;",
    "a dispatch on a member's member": r"cc\.dispatch\(.*grid_\.(cur|next)",
    "a FERRY_COMPUTE helper given the struct": r"FERRY_COMPUTE void p\d+_gstep\d+\(ferry::ComputeContext &cc, p\d+_(Sim::Grid|Grid) &g",
    "an element of a member's member written with +=": r"grid_\.(cur|next)\[[^]]+\] \+= ",
    "a public member's member written in the lambda": r"(objs\[\d\]|st|o|b|p|ptrs\[\d\])(\.|->)grid_\.(cur|next)\[\d+\] \+= \d;",
    "an object by reference to a compute helper": r"void p\d+_drive\d+\(ferry::ComputeContext &cc, p\d+_\w+ &o",
    "an object by pointer to a compute helper": r"void p\d+_drivep\d+\(ferry::ComputeContext &cc, p\d+_\w+ \*o",
    "the vector of objects to a compute helper": r"void p\d+_stepall\d+\(ferry::ComputeContext &cc, std::vector<p\d+_\w+> &os",
}
for name, rx in forms.items():
    check(re.search(rx, texts), "generated programs use the form: " + name)
# A kernel folding into a reducer.
check(re.search(r"ferry::(Sum|Min|Max)<int> r1", texts), "generated kernels reduce")
# A compute given the spare buffer in another's place.
check(re.search(r"p\d+_run\(cc, [^)]*p\d+_spare", texts),
      "generated programs pass a spare buffer in place of one of theirs")

# Computes in a function main hands its buffers to, in a loop of trips,
# sometimes one buffer as two of them.
check(re.search(r"static void p\d+_steps\(ferry::Accelerator &acc, ferry::Buffer<int> &a", texts),
      "generated programs run their computes in a function handed the buffers")
check(re.search(r"p\d+_steps\(acc, (\w+), \1, ", texts),
      "generated programs hand one buffer as two parameters of that function")
members = "\n".join(gen.generate("cover", i, form="members").text() for i in range(200))
check(re.search(r"void p\d+_State::steps\(ferry::Accelerator &acc, int trips\) \{", members),
      "generated programs run their computes in a member function of the class")
check(re.search(r"static void p\d+_steps\(ferry::Accelerator &acc, p\d+_State &st", members),
      "generated programs hand the object to a function that runs the computes")
check(re.search(r"static void p\d+_steps\(ferry::Accelerator &acc, p\d+_State \*st", members)
      and re.search(r"p\d+_steps\(acc, &st, \d+\);", members),
      "generated programs hand the object by pointer to a function that runs the computes")

# main steps its one object in a time loop (`pure`): a member compute
# function of dispatches alone, members main may not name.
objects = "\n".join(gen.generate("cover", i, form="objects").text() for i in range(200))
check(re.search(r"p\d+_Body st\(\d+\);\n  for \(int t = 0; t < \d; \+\+t\) \{\n"
                r"    acc\.compute", objects),
      "generated object programs step their object in a time loop")

# Kernels on four elements at a time, through ferry::int4.
check("ferry::vload4(kc.x, b1)" in texts and "ferry::vstore4(" in texts,
      "generated programs load and store int4 vectors")

# --avoid leaves a form out.
texts2 = "\n".join(gen.generate("cover", i, {"macro", "swap"}).text() for i in range(100))
check("_NV" not in texts2 and "std::swap" not in texts2, "--avoid leaves forms out")
check("vload4" not in "\n".join(gen.generate("cover", i, {"vec4"}).text() for i in range(100)),
      "--avoid vec4 leaves the vector kernels out")
new = {"vectorcopy": "std::vector", "ptrstore": "int *p", "ptrcompare": " != &",
       "flipref": "_flip", "structhelper": "_Pair", "columns": "; ++r) {",
       "grid": "int w", "volume": "int nz", "ptrcopy": "_src",
       "countloop": "_ci", "deadbuf": "_view_", "lambdabody": "peek",
       "global": "static ferry::Buffer<int>", "runidx": "_idx",
       "members": "_State", "vector": "std::vector<ferry::Buffer",
       "objects": "_Body", "nested": "grid_", "gridhelper": "_gstep",
       "spare": "_spare", "reduce": "<int> r1", "byref": "_steps("}
texts3 = "\n".join(gen.generate("cover", i, set(new) | {"ptrcompare"}).text() for i in range(200))
check(not any(w in texts3 for w in new.values()), "--avoid leaves the new forms out")
texts4 = "\n".join(gen.generate("cover", i, {"fillself"}).text() for i in range(200))
check(not re.search(r"std::fill\((\w+)\.begin\(\), \1\.end\(\), \(\1\[[^]]+\] \+ 1\)", texts4),
      "--avoid fillself")

# The object forms' parts leave out one by one.
for form, parts in (("objects", {"objvector": r"objs", "objptrs": r"_Body \*(p|ptrs|p\d+_all)\b",
                                 "objhelper": r"_drive", "outofclass": r"_Body::",
                                 "objhost": r"(\.|->)(bump|sum)\(",
                                 "objplain": r"static void p\d+_(drive|drivep|stepall)\d+\(",
                                 "objvirtual": r"_Base [&*]>\(",
                                 "objfunction": r"std::function<",
                                 "objextra": r"_make_extra\(int",
                                 "objfunctor": r"_Poke\{|\.poker\(\)",
                                 "objfnarg": r"void p\d+_withfn\d+\("}),
                    ("nested", {"gridpublic": r"\} grid_;\n|\.grid_", "outofclass": r"_Sim::",
                                "gridpoke": r"(?m)^\s+(this->)?grid_\.(cur|next)\[[^]]+\] \+= "})):
    for part, rx in parts.items():
        t = "\n".join(gen.generate("cover", i, {part}, form).text() for i in range(60))
        check(re.search(rx, "\n".join(gen.generate("cover", i, (), form).text() for i in range(60))),
              "%s programs use the form %s" % (form, part))
        check(not re.search(rx, t), "--avoid %s leaves it out of %s programs" % (part, form))
# A vector of objects stepped in a time loop (`objvloop`).
def vector_loops(avoid):
    return sum(1 for i in range(120)
               for t in [gen.generate("cover", i, avoid, "objects").text()]
               for m in [t[t.index("_main(ferry::Accelerator"):]]
               if "std::vector<p" in m and re.search(r"\n  for \(int t = 0; t < \d; \+\+t\) \{", m))
check(vector_loops(()) > 0, "objects programs step a vector in a time loop")
check(vector_loops({"objvloop"}) == 0, "--avoid objvloop leaves it out")
# Classes whose members the host only reads (no `bump`), and a const
# accessor written through a cast; each leaves out on request.
def classes(avoid, form):
    return re.findall(r"\nclass p\d+_(?:Body|Sim) \{[\s\S]*?\n\};",
                      "\n".join(gen.generate("cover", i, avoid, form).text() for i in range(60)))


cast = r"const_cast<ferry::Buffer<int> &>\(\S+view\(\)\)"
for form in ("objects", "nested"):
    check(any("void bump(" not in c for c in classes((), form)),
          "%s programs have classes the host only reads" % form)
    check(all("void bump(" in c for c in classes({"objreadonly", "objcast"}, form)),
          "--avoid objreadonly leaves them out of %s programs" % form)
    t = "\n".join(gen.generate("cover", i, (), form).text() for i in range(200))
    check(re.search(cast, t), "%s programs write through a const accessor cast" % form)
    t = "\n".join(gen.generate("cover", i, {"objcast"}, form).text() for i in range(60))
    check("view()" not in t, "--avoid objcast leaves it out of %s programs" % form)
t = "\n".join(gen.generate("cover", i, {"objects", "nested"}).text() for i in range(100))
check(t == "\n".join(gen.generate("cover", i, {"objects", "nested"}).text() for i in range(100)) and
      "_Body" not in t and "grid_" not in t, "--avoid objects --avoid nested")

# A program compiles as the reference execution, quietly, and prints its tags.
cxx = shutil.which("c++") or shutil.which("g++") or shutil.which("clang++-19")
runtime = os.path.join(HERE, "..", "..", "runtime", "include")
if cxx:
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "r.cpp")
        with open(src, "w") as f:
            f.write(gen.render_file("ref", [gen.generate("ref", i) for i in range(6)]))
        exe = os.path.join(tmp, "r")
        p = subprocess.run([cxx, "-std=c++17", "-I", runtime, src, "-o", exe],
                           capture_output=True, text=True)
        check(p.returncode == 0, "generated programs compile as the reference:\n" + p.stderr[-2000:])
        if p.returncode == 0:
            p = subprocess.run([exe], capture_output=True, text=True, timeout=60)
            check(p.returncode == 0 and p.stderr == "", "the reference runs cleanly")
            check(set(t for t in driver.tagged(p.stdout) if t) == {"p%d" % i for i in range(6)},
                  "every program prints tagged lines")

# The two-source layout (`--split`): the same programs, the compute and
# member functions defined in another source than main, which builds and
# prints what the one-file layout prints.
split = [gen.generate("split", i, (), form) for i, form in enumerate(
    ["params", "members", "vector", "objects", "nested"] * 4)]
parts = [gen.render_split("split", [p], "s") for p in split]
joined = "\n".join(t for d in parts for t in d.values())
for name, rx in {
        "a free compute declared in the header": r"(?m)^FERRY_COMPUTE void p\d+_run\([^{]*\);$",
        "a member compute declared in its class": r"(?m)^  FERRY_COMPUTE void p\d+_run\([^{]*\);$",
        "a member compute defined in the other source": r"FERRY_COMPUTE void p\d+_(State|Body|Sim)::p\d+_run\(",
        "a host member defined in the other source": r"void p\d+_(Body|Sim)::(bump|show)\(int \w\)",
        "a host member left inline in the header": r"  int sum\(\) const \{",
        "a global buffer main names, extern in the header": r"extern ferry::Buffer<int> \*?p\d+_(g|cur);"}.items():
    check(re.search(rx, joined), "the split layout has " + name)
late = r"(?m)^(static )?(FERRY_COMPUTE )?(void|int) p\d+_(drive|drivep|stepall|poke|total|steps)\d*\("
check(re.search(late, "\n".join(d["_b.cpp"] for d in parts)) and
      re.search(late, "\n".join(d[".cpp"] for d in parts)),
      "the split layout puts helpers given an object in either source")
check(all("p%d_main(" % i not in d["_b.cpp"] and "FERRY_KERNEL" not in d[".cpp"] + d[".h"]
          for i, d in enumerate(parts)), "the split layout keeps main and the kernels apart")
if cxx:
    with tempfile.TemporaryDirectory() as tmp:
        outs = []
        for layout in ("one", "split"):
            srcs = []
            if layout == "one":
                srcs.append(os.path.join(tmp, "one.cpp"))
                with open(srcs[0], "w") as f:
                    f.write(gen.render_file("split", split))
            else:
                for suffix, text in gen.render_split("split", split, "two").items():
                    with open(os.path.join(tmp, "two" + suffix), "w") as f:
                        f.write(text)
                    if suffix.endswith(".cpp"):
                        srcs.append(os.path.join(tmp, "two" + suffix))
            exe = os.path.join(tmp, layout)
            p = subprocess.run([cxx, "-std=c++17", "-I", runtime] + srcs + ["-o", exe],
                               capture_output=True, text=True)
            check(p.returncode == 0, "the %s layout compiles as the reference:\n%s"
                  % (layout, p.stderr[-2000:]))
            if p.returncode == 0:
                outs.append(subprocess.run([exe], capture_output=True, text=True,
                                           timeout=60).stdout)
        check(len(outs) == 2 and outs[0] == outs[1] and outs[0].count("[p") > 20,
              "the split layout prints what the one-file layout prints")

# The comparison sees what it must.
ref = {"rc": 0, "out": "[p1] a 1\n[p2] b 2\n", "err": "", "per": {}, "total": None}


def run(out, rc=0, err=""):
    return {"rc": rc, "out": out, "err": err, "per": {}, "total": None}


r = driver.compare(ref, {"planned": run("[p1] a 1\n[p2] b 3\n")}, ["p1", "p2"])
check(r["p1"] == [] and [k for _, k, _ in r["p2"]] == ["mismatch"], "a differing line is charged to its program")
r = driver.compare(ref, {"kernel": run("[p1] a 1\n", rc=-11)}, ["p1", "p2"])
check(("kernel", "crash") in [(p, k) for p, k, _ in r["p2"]] and r["p1"] == [],
      "a crash is charged to the first program whose lines are missing")
r = driver.compare(ref, {"naive": run(ref["out"], err="warning\n")}, ["p1", "p2"])
check(all(any(k == "stderr" for _, k, _ in r[t]) for t in ("p1", "p2")), "stderr is a failure")
r = driver.compare(ref, {"planned": run(ref["out"])}, ["p1", "p2"])
check(r == {"p1": [], "p2": []}, "equal output passes")
bad = run(ref["out"])
bad.update(per={"p1": (4, 0, 1), "p2": (0, 0, 0)}, total=(8, 0, 1))
r = driver.compare(ref, {"planned": bad}, ["p1", "p2"])
check(any(k == "stats" for _, k, _ in r["p1"]), "per-program bytes must add up to FERRY_STATS")

# Tool outcomes.
check(driver.tool_failure_kind("a.cpp:3:4: error: no\n") == "rewrite", "a located error is a diagnostic")
check(driver.tool_failure_kind("error: no\n") == "crash", "an unlocated error is a crash")
check(driver.tool_failure_kind("a.cpp:1:2: fatal error: x.h not found\n") == "rewrite",
      "a fatal error is a located diagnostic")
check(driver.tool_failure_kind("a.cpp:3:4: error: x\nStack dump:\n") == "crash", "a stack dump is a crash")
check(mutate.classify(-6, "") == "crash" and mutate.classify(124, "") == "hang" and
      mutate.classify(0, "") == "rewritten", "mutant outcomes")

# Build failures are pinned on programs by their markers.
with tempfile.TemporaryDirectory() as tmp:
    proj = driver.Project(tmp, "ferry", HERE, 1)
    src = os.path.join(proj.src, "f.cpp")
    with open(src, "w") as f:
        f.write("x\n// ---- program p4\ny\ny\n// ---- program p9\nz\n")
    check(driver.culprits(proj, "f", "%s:4:1: error: e\n%s:6:2: error: e" % (src, src)) == {"p4", "p9"},
          "diagnostics map to the programs they are in")
    proj.split.add("g")
    for suffix in gen.SPLIT_SUFFIXES:
        with open(os.path.join(proj.src, "g" + suffix), "w") as f:
            f.write("x\n// ---- program p%d\ny\n" % len(suffix))
    hdr = os.path.join(proj.src, "g.h")
    check(driver.culprits(proj, "g", "%s:3:1: error: e\ng_b.cpp:3:2: error: e" % hdr) == {"p2", "p6"},
          "diagnostics in a split file's header and other source map to their programs")

# Reducer edits keep the program printable and make it smaller.
p = gen.generate("s", 5)
n0 = p.text().count("\n")
for what, edit in reduce.candidates(p)[:10]:
    import copy
    q = copy.deepcopy(p)
    edit(q)
    check(q.text().count("\n") <= n0, "reducer edit `%s` does not grow the program" % what)
    check("_main(ferry::Accelerator &acc)" in q.text(), "reducer edits keep main")

print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
