"""Op `explain.run`: raw graph-break facts about the loaded target (session.target).

Two views, both gathered here and compared in C++ (src/explain/audit.cpp):

  explain  one `torch._dynamo.explain(fn)(*args, **kwargs)` call: graph/break/op counts,
           ops per graph, guards, and each break's reason with its user-code frames.
           Older torch (2.0) had `explain(fn, *args)` returning a 6-tuple
           (explanation, out_guards, graphs, ops_per_graph, break_reasons,
           explanation_verbose); that form is passed on as `form: "tuple"`.
  logged   the target run a few times under `torch.compile(backend="eager")` (no code
           generation) with torch's structured trace (TORCH_TRACE format) written to the
           trace_dir tct gives; tct reads that file with its own trace reader
           (src/trace/), the one source of the run's breaks, recompiles and graphs.
           Each captured graph is timed (the eager backend, wrapped), and after the
           logged calls a few interleaved pairs of eager and compiled calls give the
           time inside graphs beside an eager call's (share_pairs): from it C++ reads
           the share of a call that runs eagerly (tct expect weighs it at 1.0x).

Facts only: which kind of break a reason is, which frames are the user's, the
graph-break registry id a reason names, grouping, hints, the verdict and the comparison
of the two views are C++. Python extracts raw strings from explain's objects (file,
line, function, source line, reason text) and torch's own records, and nothing more.

params: {logged: bool = true, logged_calls: int = 2, trace_dir: str (required when logged)}
Op `explain.registry` {ids: [...]}: registry entries for ids tct found in the trace.
"""
from __future__ import annotations

import json
import linecache
import logging
import os
import re
import sys
import time
from typing import Any

from ..errors import TctError
from ..protocol import progress
from ..replies import reply

_AGENT_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_EXAMPLES_DIR = os.path.join(_AGENT_DIR, "examples")


def _torch_dir() -> str:
    torch = sys.modules.get("torch")
    return os.path.dirname(os.path.abspath(torch.__file__)) if torch is not None else ""


def _source(filename: str, lineno: int, given: str | None = None) -> str:
    if given:
        return given.strip()
    try:
        return linecache.getline(filename, int(lineno)).strip()
    except Exception:
        return ""


def _frame(filename, lineno, name, line=None) -> dict:
    return reply("explain.run explain break_reasons frames",
                 {"file": str(filename), "line": int(lineno) if lineno is not None else None,
                  "function": str(name), "source": _source(str(filename), lineno or 0, line)})


def stack_frames(stack) -> list[dict]:
    """FrameSummary-like objects (filename, lineno, name, line) -> every frame, outermost
    first. All of them: tct keeps the user's (src/core/user_code.cpp); a break's
    user_stack is the few frames dynamo was tracing, so nothing needs cutting for size."""
    return [_frame(getattr(fs, "filename", None) or "", getattr(fs, "lineno", None), getattr(fs, "name", "?"),
                   getattr(fs, "line", None)) for fs in stack or []]


_REGISTRY: dict | None = None


def _registry() -> dict:
    """torch/_dynamo/graph_break_registry.json (newer torch), or {}."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = {}
        path = os.path.join(_torch_dir(), "_dynamo", "graph_break_registry.json")
        try:
            with open(path, encoding="utf-8") as f:
                _REGISTRY = json.load(f)
        except Exception:
            pass
    return _REGISTRY


def registry_entry(gb_id: str | None) -> dict | None:
    if not gb_id:
        return None
    entries = _registry().get(gb_id)
    if not entries:
        return None
    e = entries[0] if isinstance(entries, list) else entries
    return reply("explain.registry", {"id": gb_id, "gb_type": e.get("Gb_type"), "explanation": e.get("Explanation"),
                                      "hints": list(e.get("Hints") or [])})


def _break(reason: str, stack) -> dict:
    return reply("explain.run explain break_reasons", {"reason": reason, "frames": stack_frames(stack)})


def op_name(target: Any) -> str:
    """A readable name for an fx node target: 'aten.add.Tensor', 'torch.relu', 'add'."""
    if isinstance(target, str):
        return target
    try:
        from torch.fx.node import _get_qualified_name
        return _get_qualified_name(target)
    except Exception:
        pass
    name = getattr(target, "__name__", None)
    mod = getattr(target, "__module__", None)
    if name:
        return f"{mod}.{name}" if mod and mod != "builtins" else name
    return str(target)


def _grad_mode(loaded):
    import torch
    return torch.enable_grad() if getattr(loaded, "train", False) else torch.no_grad()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0] if text else ''}"


def _classify_failure(loaded, exc: BaseException, stage: str) -> TctError:
    """Did the target itself fail (eager raises too) or did tracing it fail?"""
    from ..errors import TctError as E
    try:
        with _grad_mode(loaded):
            loaded.fn(*loaded.args, **loaded.kwargs)
    except BaseException as eager_exc:  # the target fails without the compiler too
        if isinstance(eager_exc, KeyboardInterrupt):
            raise
        return E("target_raised", f"the target raised {_first_line(eager_exc)}",
                 "it fails when run eagerly too: fix it, then rerun", stage="first call",
                 cause=eager_exc)
    return E("compile_failed", f"torch._dynamo failed on the target during {stage}: "
             f"{_first_line(exc)}", "the target runs eagerly; rerun with --verbose for the "
             "traceback and report it to PyTorch if it is not your code", stage=stage, cause=exc)


def _old_explain(version: str) -> bool:
    m = re.match(r"(\d+)\.(\d+)", version or "")
    return bool(m) and (int(m.group(1)), int(m.group(2))) < (2, 1)


def explain_view(loaded) -> dict:
    import torch
    import torch._dynamo as dynamo
    torch._dynamo.reset()
    try:
        with _grad_mode(loaded):
            if _old_explain(torch.__version__):
                # torch 2.0: explain(fn, *args, **kwargs) -> 6-tuple
                out = dynamo.explain(loaded.fn, *loaded.args, **loaded.kwargs)
            else:
                out = dynamo.explain(loaded.fn)(*loaded.args, **loaded.kwargs)
    except TctError:
        raise
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise _classify_failure(loaded, exc, "explain") from exc
    finally:
        torch._dynamo.reset()
    return explain_facts(out)


def explain_facts(out) -> dict:
    """ExplainOutput (torch >= 2.1) or the torch 2.0 tuple -> plain facts."""
    if isinstance(out, tuple):
        explanation, out_guards, graphs, ops_per_graph, break_reasons, verbose = (list(out) + [None] * 6)[:6]
        return reply("explain.run explain", {
            "form": "tuple", "explanation": str(explanation or ""),
            "explanation_verbose": str(verbose or ""),
            "out_guards": [str(g) for g in (out_guards or [])],
            "graphs": len(graphs or []),
            "ops_per_graph": [[op_name(o) for o in ops] for ops in (ops_per_graph or [])],
            "break_reasons": [_break(str(getattr(b, "reason", b)), getattr(b, "user_stack", []))
                              for b in (break_reasons or [])]})
    guards = getattr(out, "out_guards", None)
    return reply("explain.run explain", {
        "form": "object",
        "graph_count": int(out.graph_count),
        "graph_break_count": int(out.graph_break_count),
        "op_count": int(out.op_count),
        "ops_per_graph": [[op_name(o) for o in ops] for ops in (out.ops_per_graph or [])],
        "guard_count": len(guards) if guards is not None else None,
        "break_reasons": [_break(str(b.reason), getattr(b, "user_stack", []))
                          for b in (out.break_reasons or [])]})


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[tuple[str, str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.records.append((record.name, record.levelname, record.getMessage()))
        except Exception:
            pass


def _trace_handler(trace_dir: str):
    """A TORCH_TRACE-format file handler in trace_dir (as TORCH_TRACE=dir would write)."""
    from torch._logging import _internal, structured
    os.makedirs(trace_dir, exist_ok=True)
    path = os.path.join(trace_dir, f"dedicated_log_torch_trace_explain_{os.getpid()}.log")
    handler = logging.FileHandler(path, mode="w", encoding="utf-8")
    handler.setFormatter(_internal.TorchLogsFormatter(trace=True))
    # Interned strings already sent elsewhere would be missing from this file: start afresh.
    structured.INTERN_TABLE.clear()
    _internal.trace_log.setLevel(logging.DEBUG)
    _internal.trace_log.addHandler(handler)
    return handler, path


def _writes_trace() -> bool:
    """Does this torch write TORCH_TRACE records (torch._logging.trace_structured)?"""
    try:
        from torch._logging import _internal, structured  # noqa: F401
        return hasattr(_internal, "trace_log") and hasattr(_internal, "TorchLogsFormatter")
    except Exception:
        return False


# Pairs of calls timed after the logged run (an eager call, then a compiled one), and the most
# seconds they may take: from them C++ reads the share of an eager call the captured graphs
# cover (the fastest calls: tct expect's Amdahl weighting of code that runs eagerly) and
# Dynamo's overhead (a median of per-pair ratios, which 15 pairs left a few % apart between runs).
_SHARE_PAIRS = 31
_SHARE_SECONDS = 2.0


class _GraphClock:
    """The eager backend, each captured graph timed: what torch.compile(backend="eager") runs,
    with the wall time spent inside graphs added up (synchronized on an accelerator, so that
    the time is the graphs' work, not their launches)."""

    def __init__(self, device) -> None:
        from .. import timing
        self.sync = timing.synchronizer(device)
        self.in_graph_ns = 0

    def __call__(self, gm, example_inputs):
        forward = gm.forward

        def timed(*args):
            self.sync()
            t0 = time.perf_counter_ns()
            try:
                return forward(*args)
            finally:
                self.sync()
                self.in_graph_ns += time.perf_counter_ns() - t0
        return timed


def graph_share_pairs(loaded, compiled, clock: _GraphClock) -> dict:
    """Interleaved pairs after the compiled run's warm calls: an eager call's wall, a compiled
    call's wall and the time inside its graphs. Raw timings only: the share is C++'s."""
    eager_ns, compiled_ns, in_graph_ns = [], [], []
    started = time.perf_counter()
    while len(eager_ns) < _SHARE_PAIRS and time.perf_counter() - started < _SHARE_SECONDS:
        with _grad_mode(loaded):
            clock.sync()
            t0 = time.perf_counter_ns()
            loaded.fn(*loaded.args, **loaded.kwargs)
            clock.sync()
            t1 = time.perf_counter_ns()
            before = clock.in_graph_ns
            compiled(*loaded.args, **loaded.kwargs)
            clock.sync()
            t2 = time.perf_counter_ns()
        eager_ns.append(t1 - t0)
        compiled_ns.append(t2 - t1)
        in_graph_ns.append(clock.in_graph_ns - before)
    return reply("explain.run logged share_pairs",
                 {"eager_ns": eager_ns, "compiled_ns": compiled_ns, "in_graph_ns": in_graph_ns})


def logged_view(loaded, calls: int, trace_dir: str, share_pairs: bool = True) -> dict:
    """Run torch.compile(backend="eager") on the target, writing torch's structured trace
    to trace_dir; returns the trace file's path, the run's error and dynamo's warnings, and
    (share_pairs) timed pairs of eager and compiled calls after it (graph_share_pairs)."""
    import torch
    from torch._logging import _internal
    capture = _Capture()
    touched: list[tuple[logging.Logger, list]] = []
    set_logs = getattr(getattr(torch, "_logging", None), "set_logs", None)
    error = None
    clock = _GraphClock(getattr(loaded, "device", None))
    compiled = None
    handler, path = _trace_handler(trace_dir)
    try:
        # torch writes the trace record of a break that skips a frame from convert_frame.py
        # only while graph-break logging is on; the messages themselves go to the capture.
        if set_logs is not None:
            set_logs(graph_breaks=True)
        # torch's own stream handlers print; swap them for the capture on every torch logger.
        names = {"torch", "torch._dynamo"}
        try:
            names |= set(_internal.log_registry.get_log_qnames())
        except Exception:
            pass
        for n in sorted(names):
            lg = logging.getLogger(n)
            old = list(lg.handlers)
            for h in old:
                lg.removeHandler(h)
            lg.addHandler(capture)
            touched.append((lg, old))
        torch._dynamo.reset()
        compiled = torch.compile(loaded.fn, backend=clock)
        for i in range(max(1, calls)):
            progress(f"compiled run {i + 1}/{calls} with torch's trace")
            with _grad_mode(loaded):
                compiled(*loaded.args, **loaded.kwargs)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        error = _first_line(exc)
    finally:
        _internal.trace_log.removeHandler(handler)
        handler.close()
        for lg, old in touched:
            lg.removeHandler(capture)
            for h in old:
                lg.addHandler(h)
        if set_logs is not None:
            try:
                set_logs()
            except Exception:
                pass
    pairs = None
    if share_pairs and error is None and compiled is not None:
        progress("timing eager and compiled calls in pairs (the share of a call the graphs cover)")
        try:
            pairs = graph_share_pairs(loaded, compiled, clock)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # the calls ran above: a failure here only loses the share
            pairs = reply("explain.run logged share_pairs", {"error": _first_line(exc)})
    names = code_names()
    torch._dynamo.reset()
    # The trace has no record of dynamo's warnings (e.g. a recompile limit reached): those
    # come from the captured log, and nothing else does.
    warnings = [m.strip()[:4000] for _, level, m in capture.records if level in ("WARNING", "ERROR", "CRITICAL")]
    return reply("explain.run logged", {"trace_file": path, "calls": calls, "error": error, "warnings": warnings,
                                        "code_names": names, "share_pairs": pairs})


def code_names() -> list[dict]:
    """Every code object dynamo was handed in this run (its input_codes, cleared by
    torch._dynamo.reset()): file, first line, co_name and co_qualname (Python 3.11+), so
    tct names a skipped frame "MoE.forward", not "forward". [] where torch keeps no such
    record."""
    try:
        from torch._dynamo import convert_frame
        seen = [ref() for ref in getattr(convert_frame.input_codes, "seen", [])]
    except Exception:
        return []
    return [reply("explain.run logged code_names", {"file": c.co_filename, "line": c.co_firstlineno, "name": c.co_name,
                                                    "qualname": getattr(c, "co_qualname", None)})
            for c in seen if c is not None]


def code_dirs() -> dict:
    """Where torch and the agent live: tct tells user code from library code with these
    (the agent's examples are user code)."""
    return reply("explain.run code_dirs", {"torch": _torch_dir(), "agent": _AGENT_DIR, "examples": _EXAMPLES_DIR})


def op_run(params: dict, session) -> dict:
    loaded = session.loaded_target()
    import torch
    facts = {"torch_version": torch.__version__}
    # The logged compiled run goes first: its calls are the target's first, as the user's first
    # compiled calls are (a model that changes its own state on its first call, as transformers'
    # padding warning does, recompiles on its second call only then; torch's counters in a fresh
    # process count that recompile).
    if params.get("logged", True) and not _writes_trace():
        # Older torch has no structured trace: tct's only source of the compiled run.
        facts["logged"] = None
        facts["logged_unsupported"] = f"torch {torch.__version__} writes no TORCH_TRACE log"
    elif params.get("logged", True):
        trace_dir = params.get("trace_dir")
        if not trace_dir:
            raise TctError("internal", "explain.run with logged needs trace_dir",
                           "tct and its agent disagree: reinstall tct")
        progress("running torch.compile(backend='eager') with torch's trace")
        facts["logged"] = logged_view(loaded, int(params.get("logged_calls", 2)), trace_dir)
    else:
        facts["logged"] = None
    progress("running torch._dynamo.explain")
    facts["explain"] = explain_view(loaded)
    facts["code_dirs"] = code_dirs()
    # Registry entries come from explain.registry: tct reads the ids from the reasons.
    facts["registry_available"] = bool(_registry())
    return reply("explain.run", facts)


def op_registry(params: dict, session) -> dict:
    """{id: entry or None} for graph-break registry ids (GB0059 ...)."""
    return {str(i): registry_entry(str(i)) for i in params.get("ids") or []}
