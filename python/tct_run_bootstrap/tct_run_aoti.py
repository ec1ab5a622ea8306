"""tct job's AOTInductor mode, inside the job's process (tct_run_recorder.py hands it each site).

TCT_RUN_AOTI_PLAN names the plan tct wrote (src/job/aoti.cpp): per call site of the run that
filled the caches, where its package goes and the export's dynamic dimensions (a torch.export.Dim
per dimension the job varied, with the min and max sizes it used, and the inputs that share it).

TCT_RUN_AOTI_BUILD=1 (one unmeasured process): every call runs what torch.compile was given,
eagerly; at the first call whose varied sizes are all 2 or more (torch.export specializes an
example size of 0 or 1 to a constant), the site's module, or its function as a module, is exported
with those dimensions and packaged by torch._inductor.aoti_compile_and_package; then each call
with sizes not seen before (the first 16, and every one at a dimension's min or max; those at a
min or max that came before the export, once it is made) runs the package too, and its outputs
go beside eager's as raw differences. A fact file per site, rewritten
as it changes: what was done, how long it took, torch's own error text, the ranges torch's
exported program holds.

TCT_RUN_AOTI_LOAD=1 (the measured runs): each site of the plan calls its package, loaded with
torch._inductor.aoti_load_package when torch.compile is called (as a service loads it at start).
A site the plan does not hold keeps torch.compile, and says so in the process's aoti file.

Raw facts only: tct decides what matches and what the mode can do.
"""
import json
import os
import time

_clock = time.perf_counter_ns
# Distinct sizes checked against eager beyond the dimensions' own min and max.
_MAX_CHECKS = 16


def mode():
    """"build", "load" or "" (not asked)."""
    if os.environ.get("TCT_RUN_AOTI_BUILD") == "1":
        return "build"
    if os.environ.get("TCT_RUN_AOTI_LOAD") == "1":
        return "load"
    return ""


_plan = None


def _entry(site):
    """The plan's entry for the site (the same file, line, kind and name), or None."""
    global _plan
    if _plan is None:
        try:
            with open(os.environ["TCT_RUN_AOTI_PLAN"]) as f:
                _plan = json.load(f).get("sites", [])
        except (OSError, KeyError, ValueError):
            _plan = []
    for e in _plan:
        if (e.get("site_file"), e.get("site_line"), e.get("kind"), e.get("name")) == \
                (site.site_file, site.site_line, site.kind, site.name):
            return e
    return None


def _write(path, doc):
    tmp = path + ".tmp"
    try:
        with open(tmp, "w") as f:
            json.dump(doc, f)
        os.replace(tmp, path)
    except OSError:
        pass


def _error_text(exc):
    return f"{type(exc).__name__}: {exc}"[:4000]


def _as_module(model, torch):
    """What torch.export takes: the module itself (module.compile()'s bound _call_impl: its
    module), or a function as a module whose forward has the function's signature (so that
    dynamic_shapes can name its parameters)."""
    import inspect
    owner = getattr(model, "__self__", None)
    if isinstance(model, torch.nn.Module):
        return model
    if isinstance(owner, torch.nn.Module):
        return owner
    fn = model

    class Function(torch.nn.Module):
        def forward(self, *args, **kwargs):
            return fn(*args, **kwargs)

    sig = inspect.signature(fn)
    self_param = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    Function.forward.__signature__ = sig.replace(parameters=[self_param] + list(sig.parameters.values()))
    return Function()


def _sizes_of(entry, args, kwargs):
    """{dim name: size} of this call for the plan's dimensions (the first input that has it)."""
    out = {}
    for d in entry.get("dims", []):
        for at in d["at"]:
            t = args[at["arg"]] if "arg" in at and at["arg"] < len(args) else kwargs.get(at.get("kwarg"))
            shape = getattr(t, "shape", None)
            if shape is not None and at["dim"] < len(shape):
                out[d["name"]] = int(shape[at["dim"]])
                break
    return out


def _dynamic_shapes(entry, module, args, kwargs, torch):
    """The dict torch.export takes: every parameter of forward this call binds, by name; a
    tensor's entry maps each varied dimension to its Dim, anything else None."""
    import inspect
    bound = inspect.signature(module.forward).bind(*args, **kwargs)
    names = list(bound.arguments)
    positional = [p.name for p in inspect.signature(module.forward).parameters.values()]
    dims = {d["name"]: torch.export.Dim(d["name"], min=d["min"], max=d["max"]) for d in entry.get("dims", [])}
    spec = {name: None for name in names}
    for d in entry.get("dims", []):
        for at in d["at"]:
            name = positional[at["arg"]] if "arg" in at and at["arg"] < len(positional) else at.get("kwarg")
            value = bound.arguments.get(name)
            if isinstance(value, torch.Tensor) and at["dim"] < value.dim():
                spec[name] = dict(spec[name] or {})
                spec[name][at["dim"]] = dims[d["name"]]
    return spec


def _exported_ranges(ep, entry, spec):
    """{dim name: [lower, upper]} as the exported program's range constraints hold them (None
    for an unbounded end): found through the placeholder named after the input."""
    out = {}
    try:
        placeholders = {n.name: n for n in ep.graph.nodes if n.op == "placeholder"}
        for d in entry.get("dims", []):
            for name, dims in spec.items():
                if not dims:
                    continue
                for dim, dim_obj in dims.items():
                    if getattr(dim_obj, "__name__", None) != d["name"] or name not in placeholders:
                        continue
                    size = placeholders[name].meta["val"].shape[dim]
                    expr = getattr(getattr(size, "node", None), "expr", None)
                    vr = ep.range_constraints.get(expr) if expr is not None else None
                    if vr is None:  # specialized: a plain int
                        out[d["name"]] = [int(size), int(size)] if isinstance(size, int) else None
                    else:
                        out[d["name"]] = [_bound(vr.lower), _bound(vr.upper)]
                    break
                if d["name"] in out:
                    break
    except Exception:  # noqa: BLE001 - a fact not found, not a failure
        pass
    return out


def _bound(x):
    try:
        return int(x)
    except (TypeError, ValueError, OverflowError):
        return None


def _compare(eager_out, package_out, torch):
    """Raw differences of the two outputs' tensors (tct decides whether they match)."""
    import torch.utils._pytree as pytree
    e = [t for t in pytree.tree_leaves(eager_out) if isinstance(t, torch.Tensor)]
    a = [t for t in pytree.tree_leaves(package_out) if isinstance(t, torch.Tensor)]
    out = {"count_equal": len(e) == len(a), "shape_equal": True, "max_abs_diff": 0.0, "max_abs_expected": 0.0}
    for x, y in zip(e, a):
        x, y = x.detach(), y.detach()
        if x.shape != y.shape or x.dtype != y.dtype:
            out["shape_equal"] = False
            continue
        if x.numel():
            diff = float((x.double() - y.double()).abs().max())
            out["max_abs_diff"] = max(out["max_abs_diff"], diff if diff == diff else float("inf"))
            out["max_abs_expected"] = max(out["max_abs_expected"], float(x.double().abs().max()))
    return out


class _Builder:
    def __init__(self, site, model, entry, torch):
        self.site, self.model, self.entry, self.torch = site, model, entry, torch
        self.facts = {"index": entry.get("index"), "status": "not_called", "error": "", "checks": []}
        self.runner = None
        self.checked = set()
        self.pending = []  # calls before the export at a Dim's min or max (sizes 0 or 1 wait for it)
        self.extremes = {d["name"]: (d["min"], d["max"]) for d in entry.get("dims", [])}
        _write(entry["facts"], self.facts)

    def after_call(self, args, kwargs, out):
        sizes = _sizes_of(self.entry, args, kwargs)
        status = self.facts["status"]
        if status in ("not_called", "waiting"):
            if any(v < 2 for v in sizes.values()):
                self.facts["status"] = "waiting"  # a size of 0 or 1 would be specialized: the next call
                self.facts["skipped_small"] = self.facts.get("skipped_small", 0) + 1
                _write(self.entry["facts"], self.facts)
                if len(self.pending) < 8 and any(v in self.extremes.get(k, ()) for k, v in sizes.items()):
                    self.pending.append((args, kwargs, out, sizes))  # a min or max: checked once built
                return
            self.build(args, kwargs, sizes)
            if self.runner is not None:
                for p in self.pending:
                    self.check(*p)
            self.pending = []
        if self.runner is not None:
            self.check(args, kwargs, out, sizes)

    def build(self, args, kwargs, sizes):
        torch = self.torch
        f = self.facts
        f["export_sizes"] = sizes
        f["export_call"] = len(self.site.times)
        t0 = _clock()
        try:
            module = _as_module(self.model, torch)
            spec = _dynamic_shapes(self.entry, module, args, kwargs, torch)
            with torch.no_grad():
                ep = torch.export.export(module, tuple(args), dict(kwargs), dynamic_shapes=spec)
        except Exception as exc:  # noqa: BLE001 - torch.export's own reason is the answer
            f.update(status="export_failed", error=_error_text(exc), export_ns=_clock() - t0)
            _write(self.entry["facts"], f)
            return
        t1 = _clock()
        f["export_ns"] = t1 - t0
        f["exported"] = _exported_ranges(ep, self.entry, spec)
        try:
            path = torch._inductor.aoti_compile_and_package(ep, package_path=self.entry["package"])
            f["package_ns"] = _clock() - t1
            f["package_bytes"] = os.path.getsize(path)
            t2 = _clock()
            self.runner = torch._inductor.aoti_load_package(path)
            f["load_ns"] = _clock() - t2
            f["status"] = "built"
        except Exception as exc:  # noqa: BLE001
            f.update(status="package_failed", error=_error_text(exc), package_ns=_clock() - t1)
        _write(self.entry["facts"], f)

    def check(self, args, kwargs, out, sizes):
        key = tuple(sorted(sizes.items()))
        if key in self.checked:
            return
        extreme = any(v in self.extremes.get(k, ()) for k, v in sizes.items())
        if len(self.checked) >= _MAX_CHECKS and not extreme:
            return
        self.checked.add(key)
        c = {"sizes": sizes}
        try:
            with self.torch.no_grad():
                c.update(_compare(out, self.runner(*args, **kwargs), self.torch))
        except Exception as exc:  # noqa: BLE001 - the package refused these sizes
            c["error"] = _error_text(exc)[:1000]
        self.facts["checks"].append(c)
        _write(self.entry["facts"], self.facts)


def build_target(site, model, eager, torch):
    """The build run's call target: eager, then the export, packaging and checks. The build
    run's call times include them: its figures are its wall time and the facts, never calls."""
    entry = _entry(site)
    if entry is None:
        return eager
    builder = _Builder(site, model, entry, torch)

    def call(*args, **kwargs):
        out = eager(*args, **kwargs)
        try:
            builder.after_call(args, kwargs, out)
        except Exception as exc:  # noqa: BLE001 - never break the job
            builder.facts.update(status=builder.facts["status"], error=_error_text(exc))
            _write(entry["facts"], builder.facts)
        return out

    return call


_loaded = []


def load_target(site, torch):
    """The measured run's call target: the site's package, or None (torch.compile stays)."""
    entry = _entry(site)
    fact = {"index": site.index, "site_file": site.site_file, "site_line": site.site_line, "name": site.name}
    if entry is None or not os.path.exists(entry.get("package", "")):
        fact["missing"] = True
        _loaded.append(fact)
        _write_loaded()
        return None
    t0 = _clock()
    runner = torch._inductor.aoti_load_package(entry["package"])  # a failure fails the run: no silent fallback
    fact.update(package=entry["package"], load_ns=_clock() - t0)
    _loaded.append(fact)
    _write_loaded()

    def call(*args, **kwargs):
        return runner(*args, **kwargs)

    return call


def _write_loaded():
    folder = os.environ.get("TCT_RUN_RECORD_DIR")
    if folder:
        _write(os.path.join(folder, f"aoti-{os.getpid()}.json"), {"sites": _loaded})
