"""Where a compiled call's time goes, in the job itself: tct run's recorder hands this module
a site's calls now and then (its wrapper's slow path, after the call's clock has stopped), and
it profiles short windows of consecutive calls with torch's own events, each call bracketed by
one event of its own. Raw events only: tct cuts them into parts (src/bench/breakdown.cpp, as
bench does) and leaves the sampled calls out of the job's timings.

The profiler is torch's legacy CPU profiler (torch._C._autograd._enable_profiler_legacy): the
same RecordFunction events as Kineto's, a tenth of its start-up, nothing printed (Kineto writes
a line to stderr at each start and stop, 2.13 to 2.15, into the user's output), and it records only
the thread that started it, the thread whose calls are sampled. It starts after a call has
been timed and stops after the window's last one, so its start, stop and reading are never
inside a timed call; they are timed here and reported as the sampling's cost.

Windows: WINDOW calls each, the first once a site has made FIRST calls (those whose shapes the
recorder counts one by one; a short job keeps every call for its timings) and its last two
compiled nothing, then MIN_GAP calls later, a gap that doubles each window, or later still where
that keeps the windows' whole spans (the sampler's work and the sampled calls) under SHARE of
the site's time since its first call; at most
MAX_WINDOWS per site. Only one window is open at a time in a process; one that would open while
the job's own profiler runs (torch.profiler) is skipped and counted, and an open one closes
where it stands when the job starts its profiler. TCT_RUN_BREAKDOWN=0 (tct run --no-breakdown)
turns sampling off.
"""
import os
import threading
import time

WINDOW = 32
FIRST = 256
POSTPONE = 8
SHARE = 0.01
MIN_GAP = 64
MAX_WINDOWS = 8
CALL_EVENT = "tct.call"

enabled = os.environ.get("TCT_RUN_BREAKDOWN", "1") != "0"
_open = [None]  # the site whose window is open, at most one per process


class Sampling:
    """A site's windows and what they recorded (to_json: the record's `sampled` field)."""

    __slots__ = ("state", "start_call", "t_first", "windows", "names", "name_index", "calls", "cost_ns",
                 "skipped", "error", "bracketed", "thread", "t_open", "spent_ns", "chain")

    def __init__(self, clock):
        self.state = "waiting"      # "waiting" for the window's start, "open", "done"
        self.start_call = FIRST     # the first call of the next window
        self.t_first = clock()      # the site's first call (about): the budget's time base
        self.windows = []           # [first call index, calls] of each closed window
        self.names = []             # event names, indexed by the events' first field
        self.name_index = {}
        self.calls = []             # {ns, events: [[name, start ns, duration ns]], index}
        self.cost_ns = 0            # the sampler's own work: starts, stops, reading the events
        self.skipped = 0            # windows not opened: the job's own profiler was on
        self.error = ""             # why sampling stopped, where the profiler failed
        self.bracketed = []         # the open window's bracketed calls: [index, hit position, entries], in order
        self.chain = []             # the site's cache entries (compile ids) in lookup order, after the last window's last call
        self.thread = 0             # the thread the open window's profiler runs on
        self.t_open = 0             # when the open window's profiler started
        self.spent_ns = 0           # each window's whole span, its calls included: what the gaps budget

    def to_json(self):
        return {"windows": list(self.windows), "names": list(self.names), "calls": list(self.calls),
                "chain": list(self.chain),
                "cost_ns": self.cost_ns, "skipped_profiler_in_use": self.skipped, "error": self.error,
                "plan": {"window": WINDOW, "first": FIRST, "share": SHARE, "max_windows": MAX_WINDOWS}}


def _start_profiler():
    """The legacy CPU profiler on, on this thread."""
    from torch._C._autograd import _enable_profiler_legacy
    from torch._C._profiler import ProfilerConfig, ProfilerState, _ExperimentalConfig
    import torch.autograd.profiler as autograd_profiler
    _enable_profiler_legacy(ProfilerConfig(ProfilerState.CPU, False, False, False, False, False,
                                           _ExperimentalConfig()))
    # What torch.profiler.profile sets: Dynamo, AOTAutograd and inductor record their events
    # (Torch-Compiled Region, Pregraph bytecode, CompiledFxGraph) only under it.
    autograd_profiler._set_is_profiler_enabled(True)


def _stop_profiler():
    """The legacy CPU profiler off; its events, per thread."""
    from torch._C._autograd import _disable_profiler_legacy
    import torch.autograd.profiler as autograd_profiler
    autograd_profiler._set_is_profiler_enabled(False)
    return _disable_profiler_legacy()


def _profiler_in_use(torch):
    """The job's own profiler is on: torch's Python flag (any thread's torch.profiler sets it) or
    a profiler on this thread."""
    try:
        import torch.autograd.profiler as autograd_profiler
        return bool(autograd_profiler._is_profiler_enabled or torch._C._autograd._profiler_enabled())
    except Exception:
        return True


def yield_to_the_jobs_profiler(torch):
    """The job starting torch.profiler (or torch.autograd.profiler.profile) while a window is
    open on its thread would meet "profiler already enabled": the window closes first, where it
    stands (every profile start goes through profile._prepare_trace, 2.13 to 2.15)."""
    cls = getattr(getattr(getattr(torch, "autograd", None), "profiler", None), "profile", None)
    original = getattr(cls, "_prepare_trace", None)
    if original is None or getattr(original, "_tct", False):
        return

    def _prepare_trace(self, *args, **kwargs):
        site = _open[0]
        if site is not None and site.sampling.thread == threading.get_ident():
            _close(site, site.sampling, time.perf_counter_ns)
        return original(self, *args, **kwargs)

    _prepare_trace._tct = True
    cls._prepare_trace = _prepare_trace


def bracket(fn, site):
    """fn with each call inside one CALL_EVENT, every event of the call inside it. Each call
    notes, outside its bracket, the index it will have among the site's calls (the k-th bracket
    is the k-th noted). A window's last call also notes the position of the cache entry it hit:
    torch keeps a frame's entries most recently used first and moves a hit to the front (2.13 to
    2.15), so the entry first after the call is the one hit, and its place before the call is the
    position the lookup reached (0: not known, the call compiled a new entry). Reading the
    entries just before a call slows its lookup (about 0.4 us at 8 entries): that call is not
    cut into parts (-1: not read)."""
    from torch._C._profiler import _RecordFunctionFast
    try:
        from torch._dynamo.eval_frame import _debug_get_cache_entry_list
    except ImportError:
        _debug_get_cache_entry_list = None
    noted = site.sampling.bracketed
    times = site.times
    code = site.code

    def entries():
        try:
            return [str(e.compile_id) for e in _debug_get_cache_entry_list(code)]
        except Exception:
            return []

    def bracketed(*args, **kwargs):
        last = len(noted) == WINDOW - 1 and code is not None and _debug_get_cache_entry_list
        before = entries() if last else []
        row = [len(times), 0 if last else -1, len(before)]
        noted.append(row)
        with _RecordFunctionFast(CALL_EVENT):
            out = fn(*args, **kwargs)
        if before:
            after = entries()
            row[1] = before.index(after[0]) + 1 if after and after[0] in before else 0
            site.sampling.chain = after
        return out

    return bracketed


def step(site, torch, clock):
    """After call len(site.times) - 1, in the wrapper's slow path: open or close a window.
    Returns (calls until this site's next step, whether the next calls are bracketed); an open
    window asks for its last call, so the calls inside it pay nothing more than their bracket."""
    s = site.sampling
    call = len(site.times) - 1
    if s.state == "open":
        left = WINDOW - (call + 1 - s.windows[-1][0])  # the window's calls still to come
        if left > 0:
            return left, True
        _close(site, s, clock)
        return _until_start(s, call), False
    if s.state != "waiting" or call + 1 < s.start_call:
        return _until_start(s, call), False
    compiles = site.compile_calls
    if (compiles and compiles[-1] >= call - 1) or _open[0] is not None:
        s.start_call = call + 1 + POSTPONE  # not steady yet, or another site's window is open
        return POSTPONE, False
    if _profiler_in_use(torch):
        s.skipped += 1
        s.start_call = call + 1 + MIN_GAP * 4
        return MIN_GAP * 4, False
    t0 = s.t_open = clock()
    try:
        _start_profiler()
    except Exception as e:  # a torch without it, a profiler that refuses: no breakdown, said
        s.error = f"{type(e).__name__}: {e}"[:300]
        s.state = "done"
        return 1 << 62, False
    s.cost_ns += clock() - t0
    # Brackets noted since the last window closed (it closed early, for the job's own
    # profiler, and its wrapper kept bracketing until its next step) belong to no window.
    s.bracketed.clear()
    s.state = "open"
    s.thread = threading.get_ident()
    _open[0] = site
    s.windows.append([call + 1, 0])
    return WINDOW, True


def close_open(clock):
    """At exit: the window still open, closed where it stands."""
    site = _open[0]
    if site is not None:
        _close(site, site.sampling, clock)


def _until_start(s, call):
    return max(1, s.start_call - call - 1) if s.state == "waiting" else 1 << 62


def _close(site, s, clock):
    """Stop the profiler, keep each bracketed call's events, plan the next window."""
    t0 = clock()
    try:
        threads = _stop_profiler()
        kept = len(s.calls)
        _keep_calls(s, threads)
        # The k-th bracket closed is the k-th opened (they do not overlap on one thread).
        for row, (index, hit, entries) in zip(s.calls[kept:], s.bracketed):
            row.update(index=index, hit=hit, entries=entries)
        del s.calls[kept + len(s.bracketed):]  # a bracket without its index: none expected
    except Exception as e:
        s.error = f"{type(e).__name__}: {e}"[:300]
    _open[0] = None
    s.bracketed.clear()
    now = clock()
    s.cost_ns += now - t0
    s.spent_ns += now - s.t_open
    window = s.windows[-1]
    window[1] = len(site.times) - window[0]
    if len(s.windows) >= MAX_WINDOWS or s.error:
        s.state = "done"
        return
    # The next window once the windows' whole spans so far (the sampler's work and the sampled
    # calls, bare time and all: more than sampling costs) are SHARE of the site's time by then
    # (as many calls on as that time holds at the site's pace so far), and no sooner than a gap
    # that doubles each window: the windows spread over the job, not its first calls.
    calls = len(site.times)
    per_call = max(1, (now - s.t_first) // max(1, calls))
    gap = MIN_GAP << (len(s.windows) - 1)
    s.start_call = calls + max(gap, int(s.spent_ns / SHARE / per_call) - calls)
    s.state = "waiting"


def _keep_calls(s, threads):
    """Each CALL_EVENT's events (pushes matched to pops by handle, on its thread), start and
    duration relative to the call's start, ns (cpu_elapsed_us: exact differences)."""
    for events in threads:
        open_calls = []  # [call push, rows] of the CALL_EVENTs open
        pushes = {}      # handle -> (push event, name index)
        for e in events:
            kind = e.kind()
            if kind == "push":
                name = e.name()
                if name == CALL_EVENT:
                    open_calls.append([e, []])
                elif open_calls:
                    index = s.name_index.get(name)
                    if index is None:
                        index = s.name_index[name] = len(s.names)
                        s.names.append(name)
                    pushes[e.handle()] = (e, index)
            elif kind == "pop" and open_calls:
                head = open_calls[-1][0]
                if e.handle() == head.handle():
                    head, rows = open_calls.pop()
                    s.calls.append({"ns": int(head.cpu_elapsed_us(e) * 1000), "events": rows})
                    continue
                pushed = pushes.pop(e.handle(), None)
                if pushed is not None:
                    push, index = pushed
                    open_calls[-1][1].append([index, int(head.cpu_elapsed_us(push) * 1000),
                                              int(push.cpu_elapsed_us(e) * 1000)])
