"""The recorder behind tct run's bootstrap, imported only once torch is (see sitecustomize.py).

It wraps torch.compile so that each object it returns (a function, or an OptimizedModule
whose forward is wrapped) appends the duration of every call to its call site's array, and
notes, sparsely, the calls during which Dynamo compiled (a compile-start callback) and the
calls that ran no compiled graph (every compiled graph counts its runs), and counts the calls
per shape of their tensor arguments (the shapes the job used, after the clock stops; every
call up to a site's 256th, then 1 in 64 at random gaps). Recompile-limit hits
come from Dynamo's own warning. One JSON file per process in TCT_RUN_RECORD_DIR, rewritten
at exit, on SIGTERM (noted as such: a launcher stopping its workers sends it) and every
TCT_RUN_FLUSH_S seconds (1), so a killed process loses at most about a second of calls.
In a launcher (torchrun), the workers it saw fail, as torch's elastic agent saw them (pid,
exit code or signal), go to launcher-<pid>.json: the rank that ended first, and of what.

With TCT_RUN_TRY_FIX=ddp_wrap_order (tct run --try-fixes), a DistributedDataParallel given to
torch.compile has its inner module compiled instead, and is returned uncompiled: the run that
measures the wrap order DDP's documentation recommends.

With TCT_RUN_SHAPE_FIX (tct job --shape-fixes), tct_run_shape_fix changes each site's
torch.compile arguments or marks its calls' tensors: the run that measures one shape fix.

Raw facts only: tct computes every statistic. Calls are timed on the host with
perf_counter_ns and no synchronize is added to the user's loop. Where CUDA is in use when
torch.compile is called, each call also records a pair of CUDA events on the current stream;
they are resolved later (the flush thread takes those already complete, the exit waits for
the rest), so the device time of each call is known without stalling the job.
"""
import array
import atexit
import itertools
import json
import logging
import os
import random
import signal
import sys
import threading
import time

_clock = time.perf_counter_ns
# [compiled graphs run + compiles started * _COMPILE, compiles started]. A wrapped call reads
# the first before and after it: the difference is 1 on a steady call (one graph, no compile),
# so that one read and one comparison tell the common case from the rest.
_counts = [0, 0]
_COMPILE = 1 << 32
_GRAPHS = _COMPILE - 1  # the graph-run part of a difference
# The compile id ("1/3") of each compile Dynamo started, in order; the call during which it
# started claims it for its site (the innermost call first), so a site owns the frames it
# caused to compile whatever their names: resume functions, nested frames, wrappers.
_compile_ids = []
_claimed = set()      # indexes into _compile_ids already owned by a site
_frame_sites = {}     # Dynamo frame id ("1") -> the site that owns it
_sites = {}  # key -> _Site
_limit_hits = []
_torch_dir = ""
_record_dir = ""
_pid = os.getpid()
_force_eager = False
_aoti = ""  # tct job's AOTInductor mode: "build" or "load" (tct_run_aoti.py), "" otherwise
_sampler = None  # tct_run_sampler where calls are sampled under torch's profiler, else None
_lock = threading.Lock()
# One flush at a time: the periodic thread's, atexit's and a signal handler's once wrote one
# temporary file together, and the record kept another flush's tail (a parse error, the process
# lost). Reentrant, for a signal handler's flush inside this thread's own; each writes a file of
# its own.
_flush_lock = threading.RLock()
_flush_ids = itertools.count(1)  # each flush's temporary file
_final_written = False  # the final record is written: no periodic flush replaces it
# CUDA event pairs kept per site at most (each holds two events until resolved).
_CUDA_PENDING_CAP = 100000
# tct job: each call's end time too (perf_counter_ns, CLOCK_MONOTONIC on Linux, the clock tct
# launched the job on), so that tct knows when each site's first output came and how long the
# job's loop takes per call between calls, not only inside them.
_call_ends = os.environ.get("TCT_RUN_CALL_ENDS") == "1"
# tct job's shipped-cache mode: what torch.compiler.load_cache_artifacts and
# save_cache_artifacts did in this process (raw facts; empty when not asked).
_artifacts = {}


class _Site:
    __slots__ = ("index", "kind", "name", "code_name", "code_file", "code_line", "site_file", "site_line",
                 "times", "compile_calls", "eager_calls", "objects", "pending", "device", "compile_ids",
                 "outputs_need_grad", "ends", "wrapper", "arg_names", "shapes", "sampling", "code")

    def __init__(self, index, kind, name, code, site_file, site_line):
        self.index = index
        self.kind = kind
        self.name = name
        self.code_name = code.co_name if code else ""
        self.code_file = code.co_filename if code else ""
        self.code_line = code.co_firstlineno if code else 0
        self.code = code                # the code object Dynamo keeps this site's cache entries on
        self.site_file = site_file
        self.site_line = site_line
        self.times = array.array("q")   # ns per call, in call order
        self.compile_calls = []         # call indexes during which Dynamo compiled
        self.eager_calls = []           # call indexes that ran no compiled graph
        self.objects = 0                # compiled objects made at this site
        self.pending = []               # (call index, start event, end event), in call order
        self.device = []                # [call index, device ns] of resolved CUDA event pairs
        self.compile_ids = []           # [call index, compile id] of the compiles its calls started
        self.outputs_need_grad = None   # a compiling call's output needs grad: backward runs outside the call
        self.ends = array.array("q") if _call_ends else None  # each call's end, perf_counter_ns
        self.wrapper = None             # "ddp": torch.compile was given a DistributedDataParallel
        # The names of the code's positional parameters (a module's `self` left out): what
        # Dynamo's guards call the tensors whose shapes are counted below.
        names = code.co_varnames[:code.co_argcount] if code else ()
        self.arg_names = list(names[1:] if kind == "module" else names)
        self.shapes = {}                # the calls' tensor shapes -> calls (_note_shapes)
        # The windows of calls sampled under torch's profiler (tct_run_sampler), None when off.
        self.sampling = _sampler.Sampling(_clock) if _sampler is not None else None

    def to_json(self):
        return {"index": self.index, "kind": self.kind, "name": self.name, "code_name": self.code_name,
                "code_file": self.code_file, "code_line": self.code_line, "site_file": self.site_file,
                "site_line": self.site_line, "objects": self.objects, "durations_ns": self.times.tolist(),
                "compile_calls": list(self.compile_calls), "eager_calls": list(self.eager_calls),
                "device_ns": list(self.device), "compile_ids": list(self.compile_ids),
                "outputs_need_grad": self.outputs_need_grad, "wrapper": self.wrapper,
                "arg_names": self.arg_names, "shapes": _shapes_json(self.shapes),
                "shapes_sampling": {"all_calls": _SHAPES_ALL_CALLS, "then_one_in": _SHAPES_SAMPLE_EVERY},
                **({"ends_ns": self.ends.tolist()} if self.ends is not None else {}),
                **({"sampled": self.sampling.to_json()} if self.sampling is not None else {})}

    def resolve(self, wait):
        """Device time of the event pairs that completed (all of them when wait). Runs beside
        the job's thread: it reads a prefix and deletes it, and appends only go to the end."""
        pending = self.pending
        done = 0
        for index, start, end in pending[:len(pending)]:
            try:
                if wait:
                    end.synchronize()
                elif not end.query():
                    break
                self.device.append([index, int(start.elapsed_time(end) * 1e6)])
            except Exception:  # a context torn down, an event never recorded: drop it
                pass
            done += 1
        del pending[:done]


# Distinct shape signatures kept per site; the calls of any further one are counted under None.
_SHAPE_KEYS_CAP = 256
# Reading a call's shapes costs about 1.7 us a tensor argument (x.shape builds a torch.Size, its
# hash, torch.Tensor's isinstance), more than the rest of the wrapper: every call is counted up
# to this many calls of a site, then 1 call in _SHAPES_SAMPLE_EVERY on average, the gaps drawn
# at random (uniform on 1 .. 2N-1) so that a job whose shapes cycle is not aliased; a call
# between samples pays a countdown, which the wrapper's other savings (one counter read,
# try/except) pay for. tct says which calls were counted.
_SHAPES_ALL_CALLS = 256
_SHAPES_SAMPLE_EVERY = 64


class _NoTensor:
    """What _note_shapes takes for a tensor until hook_torch sets torch.Tensor: nothing."""


_Tensor = _NoTensor  # torch.Tensor, once torch is imported


def _note_shapes(site, args, kwargs):
    """Count the call under its tensor arguments' shapes: positional ones by position (None
    for a non-tensor), keyword ones by name; return how many calls pass until the next count.
    Runs after the call's clock has stopped, on the calls its wrapper's countdown picks."""
    shapes = site.shapes
    T = _Tensor
    key = (tuple([a.shape if isinstance(a, T) else None for a in args]),
           tuple([(k, v.shape) for k, v in kwargs.items() if isinstance(v, T)]) if kwargs else ())
    n = shapes.get(key)
    if n is not None:
        shapes[key] = n + 1
    elif len(shapes) < _SHAPE_KEYS_CAP:
        shapes[key] = 1
    else:
        shapes[None] = shapes.get(None, 0) + 1
    return 1 if len(site.times) < _SHAPES_ALL_CALLS else 1 + int(random.random() * (2 * _SHAPES_SAMPLE_EVERY - 1))


def _shapes_json(shapes):
    """[{args, kwargs, calls}], and {other: calls} for the calls past the cap. A copy first: the
    job's thread may add a key while the flush thread writes."""
    out = []
    for key, calls in dict(shapes).items():
        if key is None:
            out.append({"other": calls})
        else:
            out.append({"args": [None if s is None else list(s) for s in key[0]],
                        "kwargs": {k: list(v) for k, v in key[1]}, "calls": calls})
    return out


def _caller():
    """file:line of the first frame outside torch and this file: where torch.compile was called
    (module.compile() calls torch.compile from inside torch)."""
    f = sys._getframe(2)
    here = os.path.dirname(os.path.abspath(__file__))
    while f is not None:
        fn = f.f_code.co_filename
        if not (fn.startswith(_torch_dir) or fn.startswith(here)):
            return fn, f.f_lineno
        f = f.f_back
    return "", 0


def _target_code(model, torch):
    """(kind, name, code object Dynamo compiles) for what torch.compile was given."""
    nn = torch.nn
    if isinstance(model, nn.Module):
        fwd = getattr(type(model), "forward", None)
        return "module", type(model).__name__, getattr(fwd, "__code__", None)
    owner = getattr(model, "__self__", None)
    if isinstance(owner, nn.Module):  # module.compile(): torch.compile(self._call_impl)
        fwd = getattr(type(owner), "forward", None)
        return "module", type(owner).__name__, getattr(fwd, "__code__", None)
    inner = model
    for _ in range(8):  # functools.wraps chains
        if not hasattr(inner, "__wrapped__"):
            break
        inner = inner.__wrapped__
    code = getattr(inner, "__code__", None) or getattr(getattr(inner, "__func__", None), "__code__", None)
    name = getattr(inner, "__qualname__", None) or getattr(inner, "__name__", None) or type(inner).__name__
    return "function", name, code


def _site_for(model, torch, where):
    kind, name, code = _target_code(model, torch)
    key = (where, kind, name, code.co_filename if code else "", code.co_firstlineno if code else 0)
    with _lock:
        site = _sites.get(key)
        if site is None:
            site = _sites[key] = _Site(len(_sites), kind, name, code, where[0], where[1])
            if _is_ddp(model, torch):
                site.wrapper = "ddp"
        site.objects += 1
    return site


def _is_ddp(model, torch):
    ddp = getattr(getattr(getattr(torch, "nn", None), "parallel", None), "DistributedDataParallel", None)
    return ddp is not None and isinstance(model, ddp)


# tct job --shape-fixes: the shape fix this run applies (TCT_RUN_SHAPE_FIX), "" for none.
_shape_fix = ""


def _site_key(site):
    """tct's key of a site (run/records.cpp SiteRecord::key)."""
    return f"{site.site_file}:{site.site_line} {site.name}"


# The fix tct run --try-fixes asked this run to apply (TCT_RUN_TRY_FIX): "ddp_wrap_order" compiles
# the module inside a DistributedDataParallel given to torch.compile, instead of DDP's own forward.
_try_fix = ""
_passthrough = [False]  # torch.compile called by the fix itself: no site of its own


def _compile_inside_ddp(ddp, args, kwargs, torch, where):
    """torch.compile(DDP(model)) run as DDP(torch.compile(model)): the inner module compiled in
    place (nn.Module.compile, so DDP keeps the same module, parameters and state_dict keys), the
    DDP object returned uncompiled. Its calls are timed at the same site as the job's own order
    (the DDP object's forward, DDP's code included), so the two runs compare call for call."""
    site = _site_for(ddp, torch, where)
    inner = ddp.module
    _passthrough[0] = True
    try:
        if hasattr(inner, "compile"):
            inner.compile(*args, **kwargs)
        else:  # torch before nn.Module.compile (2.2): the compiled module in DDP's place
            ddp.module = torch.compile(inner, *args, **kwargs)
    finally:
        _passthrough[0] = False
    if "forward" not in ddp.__dict__:
        ddp.forward = _timed(ddp.forward, site)
    return ddp


def _claim(site, first, out):
    """A call of the site during which compiles started (ids from index `first` on): the
    site owns those not yet claimed by a call nested in it. Runs only on such calls."""
    call = len(site.times) - 1
    site.compile_calls.append(call)
    with _lock:
        for i in range(first, len(_compile_ids)):
            if i not in _claimed:
                _claimed.add(i)
                cid = _compile_ids[i]
                site.compile_ids.append([call, cid])
                _frame_sites.setdefault(cid.split("/")[0], site)
    if site.outputs_need_grad is None and out is not None:
        site.outputs_need_grad = _needs_grad(out)


def _needs_grad(out):
    """Does the call's output need grad (its backward then runs in loss.backward(), outside
    the timed call)? Looks into tuples, lists, dicts and model outputs with a loss/logits."""
    todo, seen = [out], 0
    while todo and seen < 64:
        x, seen = todo.pop(), seen + 1
        if getattr(x, "requires_grad", False) is True and hasattr(x, "grad_fn"):
            return True
        if isinstance(x, (tuple, list)):
            todo.extend(x)
        elif isinstance(x, dict):
            todo.extend(x.values())
        elif hasattr(x, "to_tuple"):  # transformers' ModelOutput
            try:
                todo.extend(x.to_tuple())
            except Exception:
                pass
    return False


def _timed(fn, site):
    """fn timed into site. Every line of the common path costs each call of the job (about 300
    ns in all on CPython 3.11, bench/run_bootstrap_overhead.py): a nonlocal countdown rather
    than a list cell, one counter read, try/except rather than finally. Whatever is not every
    call's (counting shapes, opening and closing a sampled window) waits for the countdown."""
    if _cuda_in_use():
        return _with_ends(_timed_cuda(fn, site), site)
    times = site.times
    append = times.append
    clock = _clock
    counts = _counts
    eager_calls = site.eager_calls
    note_shapes = _note_shapes
    skip = 1  # calls left until the next slow path

    if _force_eager:  # everything runs eagerly: only durations mean anything

        def timed_eager(*args, **kwargs):
            nonlocal skip
            t0 = clock()
            try:
                out = fn(*args, **kwargs)
            except BaseException:
                append(clock() - t0)
                raise
            append(clock() - t0)
            skip -= 1
            if not skip:
                skip = note_shapes(site, args, kwargs)
            return out

        return _with_ends(timed_eager, site)

    call = fn  # what each call runs: fn, or fn in the sampler's bracket during a window
    sample = _sampling(fn, site)

    def timed(*args, **kwargs):
        nonlocal skip, call
        c = counts[0]
        t0 = clock()
        try:
            out = call(*args, **kwargs)
        except BaseException:
            append(clock() - t0)
            _counted(site, counts[0] - c, None)
            raise
        append(clock() - t0)
        d = counts[0] - c
        if d != 1:  # _counted's rules, inline for a site whose calls all run eagerly
            if d >= _COMPILE:
                _claim(site, counts[1] - d // _COMPILE, out)
            if not d & _GRAPHS:
                eager_calls.append(len(times) - 1)
        skip -= 1
        if not skip:
            skip = note_shapes(site, args, kwargs)
            if skip > 1:  # past the site's first calls, each counted: the sampler's turn may come
                skip, call = sample(skip)
        return out

    return _with_ends(timed, site)


def _sampling(fn, site):
    """The sampler's turn in a wrapper's slow path, once the countdown to the next shape count
    is longer than one call (a site's first _SHAPES_ALL_CALLS calls, each counted, pay nothing
    for it; no window opens among them): sample(skip) -> (calls until the next slow path, what
    the next calls run: fn, or fn in the sampler's bracket during a window). Where the sampler
    is due (tct_run_sampler.step opens or closes a window) it steps in; else it shortens the
    countdown to reach that call. A step may come one call late, where a count's gap is one."""
    sampler = _sampler
    if sampler is None or site.sampling is None:
        return lambda skip: (skip, fn)
    bracketed = sampler.bracket(fn, site)
    due = [sampler.FIRST - 1, fn]  # the call after which the sampler steps in next, what calls run

    def sample(skip):
        index = len(site.times) - 1
        wait = due[0] - index
        if wait <= 0:
            wait, inside = sampler.step(site, _torch, _clock)
            due[0], due[1] = index + wait, bracketed if inside else fn
        return (skip if skip < wait else wait), due[1]

    return sample


def _counted(site, d, out):
    """The call just timed was not one graph run without a compile (d, the change in
    _counts[0], is not 1): it claims the compiles it started; with no graph run it ran eagerly."""
    compiles = d // _COMPILE
    if compiles:
        _claim(site, _counts[1] - compiles, out)
    if not d & _GRAPHS:
        site.eager_calls.append(len(site.times) - 1)


def _with_ends(timed, site):
    """tct job's call ends: each call's end on the same clock, appended after the call's own
    figures (a few tens of ns later than the clock that timed it), in a wrapper of its own so
    that tct run's calls pay nothing for it."""
    ends = site.ends
    if ends is None:
        return timed
    append, clock = ends.append, _clock

    def ended(*args, **kwargs):
        try:
            return timed(*args, **kwargs)
        finally:
            append(clock())

    return ended


def _cuda_in_use():
    """CUDA already initialised when torch.compile is called: time its calls with events too.
    TCT_RUN_CUDA_EVENTS=0 turns it off."""
    if os.environ.get("TCT_RUN_CUDA_EVENTS") == "0" or _torch is None:
        return False
    try:
        return bool(_torch.cuda.is_available() and _torch.cuda.is_initialized())
    except Exception:
        return False


def _timed_cuda(fn, site):
    times = site.times
    note_shapes = _note_shapes
    append = times.append
    clock = _clock
    counts = _counts
    pending = site.pending
    Event = _torch.cuda.Event
    force_eager = _force_eager
    skip = 1
    call = fn
    sample = _sampling(fn, site)

    def timed(*args, **kwargs):
        nonlocal skip, call
        c = counts[0]
        out = None
        start = Event(enable_timing=True)
        start.record()
        t0 = clock()
        try:
            out = call(*args, **kwargs)
            return out
        finally:
            append(clock() - t0)
            end = Event(enable_timing=True)
            end.record()
            if len(pending) < _CUDA_PENDING_CAP:
                pending.append((len(times) - 1, start, end))
            d = counts[0] - c
            if d != 1 and not force_eager:
                _counted(site, d, out)
            skip -= 1
            if not skip:
                skip = note_shapes(site, args, kwargs)
                if skip > 1:
                    skip, call = sample(skip)

    return timed


def _wrap_result(compiled, model, torch, where):
    site = _site_for(model, torch, where)
    is_module = isinstance(compiled, torch.nn.Module)
    if _force_eager:
        # --compare-eager's eager run: each call goes straight to what torch.compile was
        # given, as if the job never compiled it (what the user weighs compile against);
        # the object returned keeps its type, so the job's code runs unchanged.
        target = model.__call__ if isinstance(model, torch.nn.Module) else model
    else:
        target = compiled.__dict__.get("forward") if is_module else compiled
        if _shape_fix and target is not None:
            from tct_run_shape_fix import call_marker

            target = call_marker(_site_key(site), target, torch)
    if _aoti:  # tct job's AOTInductor mode (tct_run_aoti.py): its build run, or a package per site
        import tct_run_aoti
        eager = model.__call__ if isinstance(model, torch.nn.Module) else model
        target = (tct_run_aoti.build_target(site, model, eager, torch) if _aoti == "build"
                  else tct_run_aoti.load_target(site, torch) or target)
    if is_module:
        if target is not None and "forward" in compiled.__dict__:
            compiled.forward = _timed(target, site)
        return compiled
    if callable(compiled):
        import functools

        timed = _timed(target, site)
        try:
            functools.update_wrapper(timed, compiled)
        except Exception:
            pass
        return timed
    return compiled


def _count_graph_runs(torch):
    """Every compiled graph Dynamo installs counts its runs: a call with none ran eagerly."""
    try:
        from torch._dynamo.eval_frame import skip_code
        from torch._dynamo.output_graph import OutputGraph
    except Exception:
        return False
    original = OutputGraph.install_global_unsafe
    counts = _counts

    def make_counted(fn):
        def counted(*args, **kwargs):
            counts[0] += 1
            return fn(*args, **kwargs)

        return counted

    # Dynamo must not try to compile the counter: its bytecode runs while the frame
    # evaluation hook is still on.
    skip_code(make_counted(None).__code__)

    def install_global_unsafe(self, name, value):
        if name.startswith("__compiled_fn") and callable(value):
            value = make_counted(value)
        return original(self, name, value)

    OutputGraph.install_global_unsafe = install_global_unsafe
    return True


def _on_compile_start(args=None):
    _compile_ids.append(str(getattr(args, "compile_id", "")))
    _counts[1] += 1
    _counts[0] += _COMPILE


class _LimitHandler(logging.Handler):
    """Dynamo's 'hit config.recompile_limit' warning: the frame runs eagerly from now on
    whenever no compiled entry's guards pass."""

    def emit(self, record):
        msg = str(record.msg)
        if "hit config." not in msg:
            return
        try:
            text = record.getMessage()
        except Exception:
            text = msg
        args = record.args if isinstance(record.args, tuple) else ()
        function = str(args[2]) if len(args) > 2 else ""
        # The warning is logged inside the compile it stops: its compile id names the frame,
        # and the site that owns that frame (a resume function or a nested frame included) has
        # a call in progress, the one that hit the limit. Not tracked per call: a rare event
        # must not cost every call.
        compile_id = _current_compile_id()
        with _lock:
            site = _frame_sites.get(compile_id.split("/")[0]) if compile_id else None
            if site is None:  # no compile id: the frame's code names its site ("'f' (/path/train.py:4)")
                for s in _sites.values():
                    if s.code_file and f"({s.code_file}:{s.code_line})" in function and f"'{s.code_name}'" in function:
                        site = s
        _limit_hits.append({"site": site.index if site else None, "call": len(site.times) if site else None,
                            "limit": str(args[0]) if args else "", "value": args[1] if len(args) > 1 else None,
                            "function": function, "last_reason": str(args[3]) if len(args) > 3 else "",
                            "compile_id": compile_id, "message": text[:2000]})


def _current_compile_id():
    try:
        from torch._guards import CompileContext

        cid = CompileContext.current_compile_id()
        return str(cid) if cid is not None else ""
    except Exception:
        return ""


def _dynamo_limits():
    """Dynamo's recompile limits as the job left them (it may set its own)."""
    try:
        config = sys.modules["torch._dynamo.config"]
    except KeyError:
        return {}
    out = {}
    for name in ("recompile_limit", "cache_size_limit", "accumulated_recompile_limit", "accumulated_cache_size_limit"):
        value = getattr(config, name, None)
        if isinstance(value, int):
            out[name.replace("cache_size_limit", "recompile_limit")] = value
    return out


def flush(final=False, wait=False, ended_by=None):
    """wait: resolve every CUDA event pair, waiting for the device (at exit only: never in
    the job's loop, never in a signal handler). ended_by: the signal that ends the process."""
    if os.getpid() != _pid or not _record_dir:  # a forked child: the parent owns the file
        return
    global _final_written
    with _flush_lock:
        if _final_written and not final:
            return
        _write_record(final, wait, ended_by, f".{next(_flush_ids)}.tmp")
        _final_written = _final_written or final


def _write_record(final, wait, ended_by, tmp_suffix):
    if final and _sampler is not None:  # a window still open: its calls kept, the profiler off
        _sampler.close_open(_clock)
    with _lock:
        all_sites = list(_sites.values())
    for s in all_sites:
        if s.pending:
            s.resolve(wait=wait)
    sites = [s.to_json() for s in all_sites]
    doc = {"version": 1, "pid": _pid, "ppid": os.getppid(), "rank": os.environ.get("RANK"),
           "local_rank": os.environ.get("LOCAL_RANK"), "world_size": os.environ.get("WORLD_SIZE"),
           "argv": list(sys.argv), "python": sys.version.split()[0], "torch": _torch_version,
           "force_eager": _force_eager, "try_fix": _try_fix or None, "stance": _stance, "graph_counting": _graph_counting, "final": final,
           "threads": _torch.get_num_threads() if _torch is not None else None, "limits": _dynamo_limits(),
            "sites": sites, "recompile_limit_hits": list(_limit_hits), "ended_by": ended_by,
            **({"cache_artifacts": dict(_artifacts)} if _artifacts else {})}
    path = os.path.join(_record_dir, f"process-{_pid}.json")
    tmp = path + tmp_suffix
    try:
        with open(tmp, "w") as f:
            json.dump(doc, f, separators=(",", ":"))
        os.replace(tmp, path)
    except OSError:
        pass


# A flush rewrites every call so far (the job's thread waits on the GIL meanwhile): the
# interval stretches so that flushing takes at most this share of the job's time. Measured on
# a loaded 2-core machine: 28 ms for 10^4 calls, 0.26 s for 10^5, 2.5 s for 10^6, so past some
# 10^4 calls a killed process loses more than a second (an append-only record would not).
_FLUSH_SHARE = 0.02


def _periodic(interval):
    wait = interval
    while True:
        time.sleep(wait)
        if _sites:
            t0 = time.perf_counter()
            flush()
            wait = max(interval, (time.perf_counter() - t0) / _FLUSH_SHARE)


def _on_sigterm(signum, frame):
    flush(final=True, ended_by="SIGTERM")
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


_torch = None
_torch_version = ""
_stance = "default"
_graph_counting = False


_ready = False


def _setup_dynamo(torch):
    """At the first torch.compile, not at import: a job that never compiles pays nothing
    for torch._dynamo."""
    global _ready, _stance, _graph_counting
    _ready = True
    if _force_eager:
        # Call sites are bypassed (_wrap_result); anything compiled another way is forced
        # eager too: set_stance (2.6+), else Dynamo disabled outright.
        set_stance = getattr(getattr(torch, "compiler", None), "set_stance", None)
        if set_stance is not None:
            set_stance("force_eager")
            _stance = "force_eager"
        else:
            import torch._dynamo

            torch._dynamo.config.disable = True
            _stance = "dynamo_disabled"
        return
    load = os.environ.get("TCT_RUN_LOAD_ARTIFACTS")
    if load:
        _load_artifacts(torch, load)
    try:
        import torch._dynamo

        torch._dynamo.callback_handler.register_start_callback(_on_compile_start)
        _graph_counting = _count_graph_runs(torch)
        logging.getLogger("torch._dynamo.convert_frame").addHandler(_LimitHandler(logging.WARNING))
    except Exception:
        pass


def _load_artifacts(torch, path):
    """tct job's shipped mode: the cache artifacts a previous run saved, loaded into this
    process's empty caches before its first compile (what a deployment would do at start)."""
    t0 = _clock()
    try:
        with open(path, "rb") as f:
            data = f.read()
        info = torch.compiler.load_cache_artifacts(data)
        _artifacts["loaded_bytes"] = len(data)
        _artifacts["loaded"] = {str(k): len(v) for k, v in getattr(info, "artifacts", {}).items()} if info else {}
    except Exception as e:  # recorded, not raised: the job runs on with empty caches
        _artifacts["load_error"] = f"{type(e).__name__}: {e}"[:500]
    _artifacts["load_ns"] = _clock() - t0


def _save_artifacts():
    """At exit, before the records are written: what this process compiled, as the bytes
    torch.compiler.save_cache_artifacts returns (tct job's run that fills the shipped mode)."""
    path = os.environ.get("TCT_RUN_SAVE_ARTIFACTS")
    if not path or os.getpid() != _pid or _torch is None or not _ready or _force_eager:
        return
    t0 = _clock()
    try:
        saved = _torch.compiler.save_cache_artifacts()
        data = saved[0] if saved else b""
        with open(path, "wb") as f:
            f.write(data)
        _artifacts["saved_bytes"] = len(data)
    except Exception as e:
        _artifacts["save_error"] = f"{type(e).__name__}: {e}"[:500]
    _artifacts["save_ns"] = _clock() - t0


_LAUNCHER_ERRORS = "torch.distributed.elastic.multiprocessing.errors"
_failures = []


def _hook_process_failure(module):
    """torch's elastic agent (torchrun) makes a ProcessFailure for each worker it finds
    ended with an error: note pid, local rank, exit code (negative: the signal) and when."""
    cls = getattr(module, "ProcessFailure", None)
    original = getattr(cls, "__post_init__", None)
    if original is None or getattr(original, "_tct", False):
        return

    def post_init(self):
        original(self)
        try:
            _failures.append({"pid": int(self.pid), "local_rank": int(self.local_rank),
                              "exitcode": int(self.exitcode), "time_s": time.time()})
            path = os.path.join(_record_dir, f"launcher-{os.getpid()}.json")
            with open(path + ".tmp", "w") as f:
                json.dump({"version": 1, "pid": os.getpid(), "failures": _failures}, f)
            os.replace(path + ".tmp", path)
        except Exception:  # never break the launcher
            pass

    post_init._tct = True
    cls.__post_init__ = post_init


def _watch_launcher():
    """Hook ProcessFailure when (if ever) the process imports torch's elastic launcher."""
    module = sys.modules.get(_LAUNCHER_ERRORS)
    if module is not None:
        _hook_process_failure(module)
        return

    class _Finder:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name != _LAUNCHER_ERRORS:
                return None
            sys.meta_path.remove(_Finder)
            import importlib.util

            spec = importlib.util.find_spec(name)
            if spec is None or spec.loader is None:
                return spec
            exec_module = spec.loader.exec_module

            class _Loader:
                def create_module(self, spec):
                    return None

                def exec_module(self, module):
                    exec_module(module)
                    _hook_process_failure(module)

            spec.loader = _Loader()
            return spec

    sys.meta_path.insert(0, _Finder)


def hook_torch(torch, record_dir):
    global _torch_dir, _record_dir, _force_eager, _aoti, _torch_version, _stance, _graph_counting, _torch, _try_fix, _Tensor
    global _shape_fix, _sampler
    _torch = torch
    _Tensor = torch.Tensor
    _torch_dir = os.path.dirname(os.path.abspath(torch.__file__))
    _record_dir = record_dir
    _torch_version = str(getattr(torch, "__version__", ""))
    _force_eager = os.environ.get("TCT_RUN_FORCE_EAGER") == "1"
    if not _force_eager and (os.environ.get("TCT_RUN_AOTI_BUILD") or os.environ.get("TCT_RUN_AOTI_LOAD")):
        import tct_run_aoti
        _aoti = tct_run_aoti.mode()
    _try_fix = "" if _force_eager else os.environ.get("TCT_RUN_TRY_FIX", "")
    if not _force_eager and (os.environ.get("TCT_RUN_SHAPE_FIX") or os.environ.get("TCT_RUN_SHAPE_PROBE")):
        from tct_run_shape_fix import setup

        _shape_fix = setup(torch, record_dir)
    if not (_force_eager or _aoti or _shape_fix or _try_fix):
        import tct_run_sampler

        _sampler = tct_run_sampler if tct_run_sampler.enabled else None
        if _sampler is not None:
            _sampler.yield_to_the_jobs_profiler(torch)
    threads = os.environ.get("TCT_RUN_THREADS")
    if threads:  # tct run --threads N: intra-op threads, as OMP_NUM_THREADS (also set) would
        torch.set_num_threads(int(threads))
    original = torch.compile

    def compile_at(where, model, args, kwargs):
        if _try_fix == "ddp_wrap_order" and _is_ddp(model, torch):
            return _compile_inside_ddp(model, args, kwargs, torch, where)
        if _shape_fix:
            from tct_run_shape_fix import compile_kwargs

            _kind, name, _code = _target_code(model, torch)
            kwargs = compile_kwargs(f"{where[0]}:{where[1]} {name}", kwargs, torch)
        return _wrap_result(original(model, *args, **kwargs), model, torch, where)

    def compile(model=None, *args, **kwargs):
        if _passthrough[0]:
            return original(model, *args, **kwargs)
        where = _caller()
        if not _ready:
            _setup_dynamo(torch)
        if model is None:  # @torch.compile(mode=...): the decorator compiles through us, once
            return lambda fn: compile_at(where, fn, args, kwargs)
        return compile_at(where, model, args, kwargs)

    compile.__doc__ = original.__doc__
    compile.__wrapped__ = original
    torch.compile = compile
    atexit.register(flush, True, True)
    atexit.register(_save_artifacts)  # atexit runs in reverse: saved before the records are written
    try:
        if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # torch imported outside the main thread
        pass
    _watch_launcher()
    interval = float(os.environ.get("TCT_RUN_FLUSH_S", "1"))
    if interval > 0:
        threading.Thread(target=_periodic, args=(interval,), name="tct-run-flush", daemon=True).start()
