"""Differential driver: build generated programs through the real
`ferry_target_sources` (a generated CMake project that add_subdirectory's the
Ferry tree with the already built tool), run each as the reference execution
and rewritten under the three policies on PoCL, and compare the tagged lines.
"""

import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import time

from . import gen

POLICIES = ("planned", "kernel", "naive")
RUN_TIMEOUT = 120
ROUNDS = 8  # builds of a file, each without the programs blamed so far

PROJECT = """\
cmake_minimum_required(VERSION 3.21)
project(FerryFuzz C CXX)
# The tool is built already (and takes minutes to build): only the runtime is
# built here, and ferry_target_sources finds the tool as FERRY_EXECUTABLE.
set(FERRY_BUILD_TOOL OFF CACHE BOOL "" FORCE)
add_subdirectory("{ferry_src}" ferry)
include("${{CMAKE_CURRENT_SOURCE_DIR}}/files.cmake")
foreach(name IN LISTS FUZZ_FILES)
  set(srcs src/${{name}}.cpp)
  if(name IN_LIST FUZZ_SPLIT)
    list(APPEND srcs src/${{name}}_b.cpp)  # and src/${{name}}.h, which both include
  endif()
  add_executable(${{name}} ${{srcs}})
  ferry_target_sources(${{name}} ${{srcs}})
  add_executable(${{name}}_ref ${{srcs}})
  target_link_libraries(${{name}}_ref PRIVATE ferry::runtime)
endforeach()
"""


def sh(cmd, cwd=None, env=None, timeout=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, timeout=timeout, capture_output=True,
                           text=True, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return 124, out, "timeout after %ss" % timeout


class Project:
    """A CMake build directory holding any number of fuzz sources."""

    def __init__(self, work, ferry, ferry_src, jobs):
        self.work = os.path.abspath(work)
        self.ferry = os.path.abspath(ferry)
        self.ferry_src = os.path.abspath(ferry_src)
        self.jobs = jobs
        self.src = os.path.join(self.work, "src")
        self.build = os.path.join(self.work, "build")
        self.names, self.split = [], set()
        listing = os.path.join(self.work, "files.cmake")
        if os.path.exists(listing):
            text = open(listing).read()
            m = re.search(r"set\(FUZZ_FILES ([^)]*)\)", text)
            self.names = m.group(1).split() if m else []
            m = re.search(r"set\(FUZZ_SPLIT ([^)]*)\)", text)
            self.split = set(m.group(1).split()) if m else set()
        os.makedirs(self.src, exist_ok=True)

    def sources(self, name):
        """The Ferry sources of a file's target (and its header, when split)."""
        if name in self.split:
            return [name + s for s in gen.SPLIT_SUFFIXES]
        return [name + ".cpp"]

    def rewritten(self, name):
        return [os.path.join(self.build, "ferry", name, s[:-len(".cpp")] + ".ferry.cpp")
                for s in self.sources(name) if s.endswith(".cpp")]

    def set_files(self, files):
        """files: {name: text}, or {name: {suffix: text}} for a file split over
        two sources and a header (gen.render_split). Writes them and
        (re)configures."""
        for name, text in files.items():
            parts = text if isinstance(text, dict) else {".cpp": text}
            if isinstance(text, dict):
                self.split.add(name)
            else:
                self.split.discard(name)
            for suffix, part in parts.items():
                path = os.path.join(self.src, name + suffix)
                old = open(path).read() if os.path.exists(path) else None
                if old != part:
                    with open(path, "w") as f:
                        f.write(part)
            # A stale executable must not pass for a fresh one.
            for exe in (name, name + "_ref"):
                p = os.path.join(self.build, exe)
                if os.path.exists(p):
                    os.remove(p)
            for rw in self.rewritten(name):
                if os.path.exists(rw):
                    os.remove(rw)
        names = sorted(set(self.names) | set(files))
        with open(os.path.join(self.work, "CMakeLists.txt"), "w") as f:
            f.write(PROJECT.format(ferry_src=self.ferry_src.replace("\\", "/")))
        listing = "set(FUZZ_FILES %s)\nset(FUZZ_SPLIT %s)\n" % (
            " ".join(names), " ".join(sorted(self.split & set(names))))
        lp = os.path.join(self.work, "files.cmake")
        if not os.path.exists(lp) or open(lp).read() != listing or \
                not os.path.exists(os.path.join(self.build, "build.ninja")):
            with open(lp, "w") as f:
                f.write(listing)
            cmd = ["cmake", "-S", self.work, "-B", self.build, "-G", "Ninja",
                   "-DFERRY_EXECUTABLE=" + self.ferry, "-DCMAKE_BUILD_TYPE="]
            if shutil.which("ccache"):
                cmd.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
            rc, out, err = sh(cmd)
            if rc != 0:
                raise RuntimeError("configuring the fuzz project failed:\n" + out + err)
        self.names = names

    def build_all(self, targets):
        sh(["cmake", "--build", self.build, "-j", str(self.jobs), "--target"] + targets +
           ["--", "-k", "0"])

    def classify(self, name):
        """None when both executables exist, else (kind, message)."""
        exe = os.path.join(self.build, name)
        ref = os.path.join(self.build, name + "_ref")
        if not os.path.exists(ref):
            rc, out, err = sh(["cmake", "--build", self.build, "--target", name + "_ref"])
            return ("invalid", "the reference execution does not build (a generator "
                    "defect):\n" + tail(out + err))
        if os.path.exists(exe):
            return None
        rc, out, err = sh(["cmake", "--build", self.build, "--target", name])
        text = out + err
        if not all(os.path.exists(rw) for rw in self.rewritten(name)):
            return (tool_failure_kind(text), tail(text))
        return ("compile", tail(text))

    def exe(self, name, ref=False):
        return os.path.join(self.build, name + ("_ref" if ref else ""))


def tail(text, n=40):
    """The error lines first (they name the problem), then the last lines."""
    lines = text.strip().split("\n")
    errors = [l for l in lines if ": error:" in l][:5]
    return "\n".join(errors + lines[-n:])


LOCATED = re.compile(r"^[^\s:]+:\d+:\d+: (fatal )?error: ", re.M)


def tool_failure_kind(text):
    """A rewrite that fails with a located diagnostic is a rewrite failure;
    anything else (a signal, an assertion, no location) is a crash."""
    if re.search(r"Segmentation|Aborted|Assertion|core dumped|signal|Stack dump|"
                 r"terminate called|PLEASE submit a bug report", text):
        return "crash"
    return "rewrite" if LOCATED.search(text) else "crash"


def tagged(stdout):
    """{tag: [lines]} for lines starting with [tag]; other lines under None
    (compared only for a file of one unmarked program)."""
    out = {}
    for line in stdout.split("\n"):
        m = re.match(r"\[(p\d+)\]", line)
        out.setdefault(m.group(1) if m else None, []).append(line)
    return out


def run_one(exe, policy, workdir, stem):
    env = dict(os.environ)
    for k in ("FERRY_TRACE", "FERRY_STATS", "FERRY_FUZZ_STATS", "FERRY_POLICY", "FERRY_DEVICE"):
        env.pop(k, None)
    stats = fstats = None
    if policy:
        stats = os.path.join(workdir, "%s.%s.json" % (stem, policy))
        fstats = os.path.join(workdir, "%s.%s.programs" % (stem, policy))
        for p in (stats, fstats):
            if os.path.exists(p):
                os.remove(p)
        env.update(FERRY_DEVICE="cpu", FERRY_POLICY=policy, FERRY_STATS=stats,
                   FERRY_FUZZ_STATS=fstats)
    rc, out, err = sh([exe], cwd=workdir, env=env, timeout=RUN_TIMEOUT)
    per = {}
    total = None
    if policy:
        if fstats and os.path.exists(fstats):
            for line in open(fstats):
                t, to, fr, d = line.split()
                per[t] = (int(to), int(fr), int(d))
        if stats and os.path.exists(stats):
            try:
                j = json.load(open(stats))
                total = (j["to_device"]["bytes"], j["from_device"]["bytes"], j["dispatches"])
            except (ValueError, KeyError):
                total = None
    return {"rc": rc, "out": out, "err": err, "per": per, "total": total}


def compare(ref, runs, tags):
    """Per program tag: [] when it agrees everywhere, else a list of
    (policy, kind, detail). A failure that cannot be pinned on one program
    (a crash, stderr) goes to the first program whose lines differ, or to
    every program when none does."""
    result = {t: [] for t in tags}
    rt = tagged(ref["out"])
    for policy, run in runs.items():
        got = tagged(run["out"])
        first = None
        for t in tags:
            if got.get(t, []) != rt.get(t, []):
                result[t].append((policy, "mismatch", diff(rt.get(t, []), got.get(t, []))))
                first = first or t
        for kind, bad, detail in (("crash", run["rc"] != 0, "exit status %s" % run["rc"]),
                                  ("stderr", run["err"].strip() != "", tail(run["err"], 10))):
            if bad:
                for t in ([first] if first else tags):
                    result[t].append((policy, kind, detail))
        if run["total"] is not None and run["per"] and run["rc"] == 0:
            s = [sum(v[i] for v in run["per"].values()) for i in range(3)]
            if tuple(s) != tuple(run["total"]):
                for t in tags:
                    result[t].append((policy, "stats", "FERRY_STATS %s != sum of programs %s"
                                      % (run["total"], s)))
                    break
    return result


def diff(a, b):
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "<missing>"
        y = b[i] if i < len(b) else "<missing>"
        if x != y:
            return "line %d: reference `%s`, rewritten `%s`" % (i + 1, x, y)
    return ""


def check_file(project, name, tags, policies=POLICIES):
    """Runs one built file; {tag: [(policy, kind, detail)]} plus stats."""
    bad = project.classify(name)
    if bad:
        kind, msg = bad
        return {t: [("build", kind, msg)] for t in tags}, {}
    wd = os.path.join(project.work, "runs")
    os.makedirs(wd, exist_ok=True)
    ref = run_one(project.exe(name, True), None, wd, name)
    if ref["rc"] != 0 or ref["err"].strip():
        return {t: [("reference", "invalid", "the reference execution failed (%s): %s"
                     % (ref["rc"], tail(ref["err"], 10)))] for t in tags}, {}
    runs = {p: run_one(project.exe(name), p, wd, name) for p in policies}
    stats = {t: {p: runs[p]["per"].get(t) for p in policies} for t in tags}
    return compare(ref, runs, tags), stats


def culprits(project, name, message):
    """Program tags that a build failure's diagnostics point into: each
    location is mapped to the nearest `// ---- program pK` marker above it,
    in the source or in the rewritten file (markers survive the rewrite)."""
    tags = set()
    for path, line in re.findall(r"([^\s:]+\.(?:cpp|cl|h)):(\d+):\d+:", message):
        for cand in [path] + [os.path.join(project.src, s) for s in project.sources(name)] + \
                project.rewritten(name):
            if os.path.basename(cand) == os.path.basename(path) and os.path.exists(cand):
                lines = open(cand, errors="replace").read().split("\n")[:int(line)]
                for l in reversed(lines):
                    m = re.match(r"\s*// ---- program (p\d+)", l)
                    if m:
                        tags.add(m.group(1))
                        break
                break
    return tags


def solo_rewrites(project, seed, progs):
    """{tag: (kind, message)} for the programs that `ferry rewrite` rejects
    or crashes on when each is alone in a file."""
    solo = os.path.join(project.work, "solo")
    os.makedirs(solo, exist_ok=True)
    out = {}
    for p in progs:
        src = os.path.join(solo, p.tag + ".cpp")
        with open(src, "w") as f:
            f.write(gen.render_file(seed, [p]))
        rc, o, e = sh([project.ferry, "rewrite", src, "-o", src + ".ferry.cpp", "--", "-std=c++17"],
                      timeout=RUN_TIMEOUT)
        if rc != 0:
            out[p.tag] = (tool_failure_kind(o + e), tail(o + e))
    return out


def batch(args, log):
    """Generates, builds and checks args.programs programs; returns the
    project and the summary dict (also written to <work>/results.json).

    A file that fails to build is not the end of its other programs: the
    programs its diagnostics point into are charged with the failure and the
    rest are built again as a new file (a few rounds)."""
    t0 = time.time()
    project = Project(args.work, args.ferry, args.ferry_src, args.jobs)
    avoid = set(getattr(args, "avoid", None) or [])
    idx = list(range(args.first, args.first + args.programs))
    form = getattr(args, "form", None)
    progs = {i: gen.generate(args.seed, i, avoid, form) for i in idx}
    pending = {}
    for f in range(0, len(idx), args.per_file):
        chunk = idx[f:f + args.per_file]
        pending["f%d_%d" % (chunk[0], chunk[-1])] = chunk
    results, stats = {}, {}
    t_build = 0
    for round_ in range(ROUNDS):
        if not pending:
            break
        split = getattr(args, "split", False)
        files = {n: gen.render(args.seed, [progs[i] for i in c], n, split)
                 for n, c in pending.items()}
        project.set_files(files)
        tb = time.time()
        log("building %d files (%d programs) with -j%d" % (
            len(files), sum(len(c) for c in pending.values()), args.jobs))
        project.build_all(sorted(files) + [n + "_ref" for n in sorted(files)])
        t_build += time.time() - tb
        retry = {}

        def check(n):
            tags = ["p%d" % i for i in pending[n]]
            bad = project.classify(n)
            if bad and round_ < ROUNDS - 1 and len(tags) > 1:
                found = {}
                if bad[0] in ("rewrite", "crash"):
                    # The tool stops at some errors (one per file, for some):
                    # rewriting each program alone finds every failing one.
                    found = solo_rewrites(project, args.seed, [progs[i] for i in pending[n]])
                if not found:
                    found = {t: bad for t in culprits(project, n, bad[1]) & set(tags)}
                if found and set(found) != set(tags):
                    return n, {t: [("build",) + tuple(v)] for t, v in found.items()}, {}, \
                        [i for i in pending[n] if "p%d" % i not in found]
            r, s = check_file(project, n, tags)
            return n, r, s, []

        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for n, r, s, rest in pool.map(check, sorted(pending)):
                results.update({(n, t): v for t, v in r.items()})
                stats.update(s)
                if rest:
                    retry["%s_r%d" % (n.split("_r")[0], round_ + 1)] = rest
        pending = retry
    summary = summarise(results, stats, len(idx))
    summary["seconds"] = round(time.time() - t0, 1)
    summary["build_seconds"] = round(t_build, 1)
    summary["seed"] = args.seed
    summary["failures"] = [
        {"file": n, "program": t, "problems": [list(p) for p in v],
         "source": os.path.join(project.src, n + ".cpp")}
        for (n, t), v in sorted(results.items()) if v]
    with open(os.path.join(project.work, "results.json"), "w") as f:
        json.dump(summary, f, indent=1)
    return project, summary


def summarise(results, stats, nprog):
    kinds = {"mismatch": 0, "rewrite": 0, "compile": 0, "crash": 0, "stderr": 0,
             "invalid": 0, "stats": 0}
    for v in results.values():
        seen = set(k for _, k, _ in v)
        if "mismatch" in seen and "crash" in seen:
            seen.discard("mismatch")  # the run died: count the crash
        for k in seen:
            kinds[k] = kinds.get(k, 0) + 1
    bytes_ = {p: 0 for p in POLICIES}
    for t, per in stats.items():
        for p, v in per.items():
            if v:
                bytes_[p] += v[0] + v[1]
    # Not a failure, but worth a look: the plan moved more than copying
    # around every dispatch would have.
    worse = sum(1 for per in stats.values()
                if per.get("planned") and per.get("kernel") and
                sum(per["planned"][:2]) > sum(per["kernel"][:2]))
    return {"programs": nprog, "failed_programs": sum(1 for v in results.values() if v),
            "planned_above_kernel": worse,
            "counts": kinds, "bytes": bytes_,
            "per_program_bytes": {t: {p: (v[0] + v[1] if v else None) for p, v in per.items()}
                                  for t, per in sorted(stats.items())}}
