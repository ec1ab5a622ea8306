"""The target contract shared by every command: load `SPEC` + parameters into a callable
with example inputs, describe it, build a training step, and walk output pytrees.

A target spec is one of

    FILE.py:NAME            a file, imported with its directory first on sys.path
    package.module:NAME     an importable module
    builtin:NAME            a factory from tct_agent.examples (see list_builtins())

NAME is a *factory*: called with keyword parameters, it returns the callable to compile
and its example inputs, `(fn, args)` or `(fn, args, kwargs)`. An nn.Module is a callable.
`args` may also be a single tensor (taken as `(tensor,)`); `kwargs` may be None.

`device` / `dtype` (strings such as "cpu", "cuda:0", "float32", "bf16" or None) are passed
to the factory when its signature names them (not merely **kwargs); whatever it does not
accept, the loader applies itself: the module (`.to(device, dtype)`, which casts only
floating parameters and buffers) and the floating tensors of args/kwargs (pytree-aware).

How a loaded target is run (what bench times): `LoadedTarget.call(fn=None)`.
  * inference: `fn(*args, **kwargs)` under `torch.no_grad()`, so eager and compiled run
    in the same grad mode and eager does not pay for recording an autograd graph;
  * `--train`: the train step from `make_train_step` (forward, loss, backward, grads set
    to None) around `fn`; its result is the detached loss.
Pass a compiled version of `loaded.fn` as `fn` to run it under exactly the same
conditions; `call()` with no argument runs the eager target.
"""
from __future__ import annotations

import dataclasses
import difflib
import importlib
import importlib.util
import inspect
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from .errors import TctError
from .replies import reply

SPEC_HINT = "give the target as FILE.py:NAME, package.module:NAME or builtin:NAME"

# Accepted spellings -> torch dtype attribute name. Only floating dtypes: `--dtype`
# is the precision the model runs in; integer inputs (token ids, masks) keep theirs.
_DTYPE_ALIASES = {
    "float32": "float32", "fp32": "float32", "float": "float32", "f32": "float32",
    "float64": "float64", "fp64": "float64", "double": "float64", "f64": "float64",
    "float16": "float16", "fp16": "float16", "half": "float16", "f16": "float16",
    "bfloat16": "bfloat16", "bf16": "bfloat16",
}


_MAX_DESCRIBED_INPUTS = 200

# --------------------------------------------------------------------------- pytrees

def _is_namedtuple(obj: Any) -> bool:
    return isinstance(obj, tuple) and hasattr(type(obj), "_fields")


def _is_dataclass_instance(obj: Any) -> bool:
    return hasattr(type(obj), "__dataclass_fields__") and not isinstance(obj, type)


def _is_mapping(obj: Any) -> bool:
    if isinstance(obj, dict):
        return True
    from collections.abc import Mapping
    if isinstance(obj, Mapping):
        return True
    # Duck-typed dict-likes (e.g. transformers' BatchEncoding): keys() + __getitem__.
    return (callable(getattr(obj, "keys", None)) and hasattr(obj, "__getitem__")
            and not isinstance(obj, (str, bytes)) and not _is_tensor(obj))


def _is_tensor(obj: Any) -> bool:
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(obj, torch.Tensor)


def children(obj: Any) -> list[tuple[str, Any]] | None:
    """The children of a pytree node as (path suffix, child), or None for a leaf.

    Order of checks matters: dataclass-like outputs (HuggingFace ModelOutput is both a
    dataclass and an OrderedDict) are walked by field, giving `.logits`; namedtuples and
    torch.return_types by field name too; mappings by key (`['a']`); lists and tuples by
    index (`[0]`). Tensors, numbers, strings and anything else are leaves.
    """
    if _is_tensor(obj) or isinstance(obj, (str, bytes, int, float, complex, bool, type(None))):
        return None
    if _is_dataclass_instance(obj):
        return [(f".{f.name}", getattr(obj, f.name, None))
                for f in dataclasses.fields(obj)]
    if _is_namedtuple(obj):
        return [(f".{name}", value) for name, value in zip(type(obj)._fields, obj)]
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(obj, torch.Size):
        return None  # a shape is a value, compare it whole
    # torch.return_types.* (structseq): fields named, behaves like a tuple.
    if isinstance(obj, tuple) and hasattr(type(obj), "n_fields"):
        names = list(getattr(type(obj), "__match_args__", ()) or ())
        if len(names) != len(obj):
            return [(f"[{i}]", v) for i, v in enumerate(obj)]
        return [(f".{n}", v) for n, v in zip(names, obj)]
    if isinstance(obj, (list, tuple)):
        return [(f"[{i}]", v) for i, v in enumerate(obj)]
    if _is_mapping(obj):
        try:
            return [(f"[{k!r}]", obj[k]) for k in list(obj.keys())]
        except Exception:  # a keys() that lies: treat the object as a leaf
            return None
    return None


def walk(tree: Any, root: str = "out") -> Iterator[tuple[str, Any]]:
    """Yield (path, leaf) for every leaf of `tree`, depth first, in container order."""
    kids = children(tree)
    if kids is None:
        yield root, tree
        return
    for suffix, child in kids:
        yield from walk(child, root + suffix)


def tensor_leaves(tree: Any, root: str = "out") -> list[tuple[str, Any]]:
    """[(path, tensor)] for every tensor leaf, with paths like `out[0].logits`,
    `out['a'][1]`."""
    return [(p, leaf) for p, leaf in walk(tree, root) if _is_tensor(leaf)]


def _rebuild(obj: Any, new_children: list[Any]) -> Any:
    """Same container as `obj` with its children (in `children()` order) replaced."""
    if _is_dataclass_instance(obj):
        import copy
        out = copy.copy(obj)
        for f, v in zip(dataclasses.fields(obj), new_children):
            try:
                object.__setattr__(out, f.name, v)
            except Exception:
                pass
        if isinstance(out, dict):  # ModelOutput keeps its values in the dict too
            for f, v in zip(dataclasses.fields(obj), new_children):
                if f.name in out:
                    dict.__setitem__(out, f.name, v)
        return out
    if _is_namedtuple(obj):
        return type(obj)(*new_children)
    if isinstance(obj, tuple) and hasattr(type(obj), "n_fields"):
        return type(obj)(new_children)
    if isinstance(obj, list):
        return type(obj)(new_children) if type(obj) is not list else list(new_children)
    if isinstance(obj, tuple):
        return tuple(new_children) if type(obj) is tuple else type(obj)(new_children)
    keys = list(obj.keys())
    try:
        out = type(obj)()
        for k, v in zip(keys, new_children):
            out[k] = v
        return out
    except Exception:
        return dict(zip(keys, new_children))


def map_leaves(fn: Callable[[Any], Any], tree: Any) -> Any:
    kids = children(tree)
    if kids is None:
        return fn(tree)
    return _rebuild(tree, [map_leaves(fn, c) for _, c in kids])


def move_to(tree: Any, device: Any = None, dtype: Any = None) -> Any:
    """Move a pytree (or an nn.Module, in place) to `device`, casting floating tensors
    to `dtype`. Integer, bool and complex tensors keep their dtype; non-tensors are kept.
    `device`/`dtype` may be strings, torch objects or None (= leave as is)."""
    import torch
    dev = torch.device(device) if isinstance(device, str) else device
    dt = parse_dtype(dtype) if isinstance(dtype, str) else dtype
    if dev is None and dt is None:
        return tree
    if isinstance(tree, torch.nn.Module):
        return tree.to(device=dev, dtype=dt) if dt is not None else tree.to(device=dev)

    def move(leaf):
        if isinstance(leaf, torch.nn.Module):
            return move_to(leaf, dev, dt)
        if not isinstance(leaf, torch.Tensor):
            return leaf
        if dt is not None and leaf.is_floating_point():
            out = leaf.to(device=dev, dtype=dt)
        else:
            out = leaf.to(device=dev) if dev is not None else leaf
        if out is not leaf and leaf.requires_grad and out.is_leaf is False:
            out = out.detach().requires_grad_(True)  # keep it a leaf that wants grads
        return out

    return map_leaves(move, tree)


# --------------------------------------------------------------------- device/dtype

def parse_dtype(name: str | None):
    if name is None:
        return None
    import torch
    if isinstance(name, torch.dtype):
        return name
    key = str(name).strip().lower().removeprefix("torch.")
    attr = _DTYPE_ALIASES.get(key)
    if attr is None:
        known = getattr(torch, key, None)
        if isinstance(known, torch.dtype):
            raise TctError("bad_param", f"dtype '{name}' is not a floating point dtype",
                           "use one of float32, float16, bfloat16, float64; integer inputs "
                           "keep their own dtype")
        raise TctError("bad_param", f"unknown dtype '{name}'",
                       "use one of float32, float16, bfloat16, float64 "
                       "(aliases: fp32, fp16, half, bf16, fp64, double)")
    return getattr(torch, attr)


def available_devices() -> list[str]:
    import torch
    out = ["cpu"]
    try:
        if torch.cuda.is_available():
            n = torch.cuda.device_count()
            out += ["cuda"] + [f"cuda:{i}" for i in range(n)]
    except Exception:
        pass
    try:
        if hasattr(torch, "xpu") and torch.xpu.is_available():
            out += ["xpu"] + [f"xpu:{i}" for i in range(torch.xpu.device_count())]
    except Exception:
        pass
    try:
        if torch.backends.mps.is_available():
            out.append("mps")
    except Exception:
        pass
    return out


def parse_device(name: str | None):
    """A torch.device that exists on this machine, or TctError(unsupported)."""
    if name is None:
        return None
    import torch
    avail = available_devices()
    hint = f"devices available here: {', '.join(avail)}"
    try:
        dev = torch.device(name) if not isinstance(name, torch.device) else name
    except Exception:
        raise TctError("unsupported", f"unknown device '{name}'", hint) from None
    if dev.type == "cpu":
        return dev
    if dev.type == "meta":
        raise TctError("unsupported", "device 'meta' holds no data, so nothing can be "
                       "timed or compared", hint)
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            why = ("this torch build has no CUDA support" if torch.version.cuda is None
                   else "no CUDA GPU is visible (check drivers and CUDA_VISIBLE_DEVICES)")
            raise TctError("unsupported", f"device '{name}' is not available: {why}", hint)
        if dev.index is not None and dev.index >= torch.cuda.device_count():
            raise TctError("unsupported",
                           f"device '{name}' is not available: only "
                           f"{torch.cuda.device_count()} CUDA device(s)", hint)
        return dev
    if str(dev) in avail or dev.type in avail:
        return dev
    # Other backends (privateuse1, ...): available if a tensor can be made there.
    try:
        torch.empty(1, device=dev)
        return dev
    except Exception:
        raise TctError("unsupported", f"device '{name}' is not available here", hint) from None


# --------------------------------------------------------------------------- loading

@dataclass
class LoadedTarget:
    spec: str
    name: str                      # NAME part of the spec (the factory)
    fn: Callable                   # what gets compiled (an nn.Module or a function)
    args: tuple
    kwargs: dict
    module: Any = None             # fn when it is an nn.Module, else None
    device: str | None = None      # as requested, or inferred from parameters/inputs
    dtype: str | None = None       # as requested, or inferred ("float32", ...)
    source_file: str | None = None
    params: dict = field(default_factory=dict)  # the factory parameters used
    train: bool = False
    step: Callable | None = None   # train step around `fn` (set when train=True)
    _steps: dict = field(default_factory=dict, repr=False)

    def call(self, fn: Callable | None = None) -> Any:
        """Run the target once: `fn` (default: the eager `self.fn`) with the example
        inputs, under no_grad for inference or through the train step for --train."""
        if self.train:
            if fn is None or fn is self.fn:
                if self.step is None:
                    self.step = make_train_step(self)
                return self.step()
            step = self._steps.get(id(fn))
            if step is None or step[0] is not fn:
                step = (fn, make_train_step(self, fn))
                self._steps[id(fn)] = step
            return step[1]()
        import torch
        with torch.no_grad():
            return (self.fn if fn is None else fn)(*self.args, **self.kwargs)

    def describe(self) -> dict:
        import torch
        out: dict[str, Any] = {
            "spec": self.spec,
            "name": self.name,
            "kind": "module" if self.module is not None else "function",
            "fn_name": _callable_name(self.fn),
            "device": self.device,
            "dtype": self.dtype,
            "source_file": self.source_file,
            "params": _jsonable(self.params),
            "train": self.train,
            "mode": "train" if self.train else "inference (torch.no_grad)",
        }
        if self.module is not None:
            ps = list(self.module.parameters())
            bs = list(self.module.buffers())
            out["parameter_count"] = int(sum(p.numel() for p in ps))
            out["parameter_bytes"] = int(sum(p.numel() * p.element_size() for p in ps))
            out["trainable_parameter_count"] = int(sum(p.numel() for p in ps if p.requires_grad))
            out["buffer_bytes"] = int(sum(b.numel() * b.element_size() for b in bs))
            out["training_mode"] = bool(self.module.training)
        inputs = []
        for path, leaf in list(walk(self.args, "args")) + list(walk(self.kwargs, "kwargs")):
            if isinstance(leaf, torch.Tensor):
                inputs.append(reply("target.load inputs", {
                    "path": path, "shape": list(leaf.shape), "dtype": dtype_name(leaf.dtype),
                    "device": str(leaf.device), "requires_grad": bool(leaf.requires_grad)}))
            else:
                inputs.append(reply("target.load inputs", {"path": path, "type": type(leaf).__name__,
                                                           "value": _short_repr(leaf)}))
        # Cap the listing: a factory may pass thousands of small leaves (lists of ints).
        out["inputs"] = inputs[:_MAX_DESCRIBED_INPUTS]
        out["inputs_total"] = len(inputs)
        out["input_bytes"] = int(sum(t.numel() * t.element_size()
                                     for _, t in tensor_leaves((self.args, self.kwargs))))
        return reply("target.load", out)


def dtype_name(dtype) -> str:
    return str(dtype).removeprefix("torch.")


def _short_repr(v: Any, limit: int = 80) -> str:
    try:
        r = repr(v)
    except Exception as exc:  # noqa: BLE001 - a broken __repr__ must not fail describe
        r = f"<unrepresentable {type(v).__name__}: {exc}>"
    return r if len(r) <= limit else r[: limit - 3] + "..."


def _jsonable(v: Any) -> Any:
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    return _short_repr(v)


def _callable_name(fn: Any) -> str:
    import torch
    if isinstance(fn, torch.nn.Module):
        return type(fn).__name__
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__


def _parse_spec(spec: str) -> tuple[str, str, str]:
    """(kind, where, name) with kind in builtin/file/module."""
    if not isinstance(spec, str) or not spec.strip():
        raise TctError("bad_target", "no target given", SPEC_HINT)
    spec = spec.strip()
    if ":" not in spec:
        if spec.endswith(".py"):
            raise TctError("bad_target", f"target '{spec}' names a file but no factory",
                           f"add the factory name: {spec}:NAME (a function returning "
                           "(fn, args) or (fn, args, kwargs))")
        raise TctError("bad_target", f"target '{spec}' has no ':NAME' part", SPEC_HINT)
    where, name = spec.rsplit(":", 1)
    if not where or not name:
        raise TctError("bad_target", f"target '{spec}' is incomplete", SPEC_HINT)
    if not name.isidentifier():
        raise TctError("bad_target", f"'{name}' in target '{spec}' is not a Python name",
                       SPEC_HINT)
    if where == "builtin":
        return "builtin", where, name
    if where.endswith(".py") or os.sep in where or "/" in where:
        return "file", where, name
    if all(part.isidentifier() for part in where.split(".")):
        return "module", where, name
    raise TctError("bad_target", f"'{where}' in target '{spec}' is neither a .py file nor "
                   "a module name", SPEC_HINT)


def _import_file(path: str):
    full = os.path.abspath(os.path.expanduser(path))
    if not os.path.exists(full):
        raise TctError("bad_target", f"file not found: {path}",
                       f"check the path (relative paths start at {os.getcwd()})")
    if not os.path.isfile(full):
        raise TctError("bad_target", f"{path} is not a file", SPEC_HINT)
    directory = os.path.dirname(full)
    stem = os.path.splitext(os.path.basename(full))[0]
    # Import under the file's own name (as `python FILE.py` would let siblings import it),
    # unless that would replace tct_agent or another module already loaded from elsewhere.
    modname = stem
    existing = sys.modules.get(stem)
    if (not stem.isidentifier() or stem == "tct_agent" or stem.startswith("tct_agent.")
            or (existing is not None
                and os.path.abspath(getattr(existing, "__file__", "") or "") != full)):
        modname = "tct_user_" + "".join(c if c.isalnum() else "_" for c in stem)
    if directory not in sys.path:
        sys.path.insert(0, directory)
    spec = importlib.util.spec_from_file_location(modname, full)
    if spec is None or spec.loader is None:
        raise TctError("bad_target", f"cannot import {path}", "the target file must be a .py file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module  # dataclasses, pickling and dynamo look modules up here
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:
        sys.modules.pop(modname, None)
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _import_error(path, exc) from exc
    return module, full


def _import_error(where: str, exc: BaseException) -> TctError:
    if isinstance(exc, SyntaxError):
        loc = f"{os.path.basename(exc.filename or where)}:{exc.lineno}"
        return TctError("target_raised", f"syntax error in {loc}: {exc.msg}",
                        "fix the syntax error, then rerun", stage="import", cause=exc)
    if isinstance(exc, SystemExit):
        return TctError("target_raised", f"importing {where} called exit({exc.code})",
                        "guard script code with `if __name__ == \"__main__\":`",
                        stage="import", cause=exc)
    hint = "run `python -c \"import ...\"` on the file to see the full error"
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        hint = (f"install '{exc.name}' in the interpreter tct uses, or choose another one "
                "with --python")
    return TctError("target_raised", f"importing {where} raised {type(exc).__name__}: {exc}",
                    hint, stage="import", cause=exc)


def _import_module(name: str):
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        # The target module itself (or its package) does not exist: a bad spec. A missing
        # module that the target imports is the target failing.
        if exc.name and (name == exc.name or name.startswith(exc.name + ".")):
            return_hint = ("check the module name and that its package is importable from "
                           f"{os.getcwd()} (or use FILE.py:NAME)")
            raise TctError("bad_target", f"no module named '{name}'", return_hint) from exc
        raise _import_error(name, exc) from exc
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _import_error(name, exc) from exc
    return module, getattr(module, "__file__", None)


def _defined_callables(module) -> list[str]:
    names = []
    for attr, value in vars(module).items():
        if attr.startswith("_") or not callable(value):
            continue
        if getattr(value, "__module__", None) == module.__name__:
            names.append(attr)
    return sorted(names)


def _find_factory(module, name: str, where: str):
    if hasattr(module, name):
        return getattr(module, name)
    defined = _defined_callables(module)
    listing = ", ".join(defined) if defined else "no functions or classes"
    close = difflib.get_close_matches(name, defined, n=1)
    hint = (f"did you mean '{close[0]}'?" if close
            else "NAME must be a function returning (fn, args) or (fn, args, kwargs)")
    raise TctError("bad_target", f"no '{name}' in {where}; it defines: {listing}", hint)


def _accepted(sig: inspect.Signature) -> tuple[list[str], bool]:
    names, var_kw = [], False
    for p in sig.parameters.values():
        if p.kind == p.VAR_KEYWORD:
            var_kw = True
        elif p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            names.append(p.name)
    return names, var_kw


# What a parameter's default (or plain annotation) says it takes: the value's JSON type
# must fit, or the factory fails later with torch's multi-line TypeError (randn("abc")).
_TYPE_WORDS = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}


def _expected_type(p: inspect.Parameter) -> type | None:
    default = p.default
    if default is not p.empty and default is not None:
        return type(default) if type(default) in _TYPE_WORDS else None
    ann = p.annotation
    if isinstance(ann, str):  # `from __future__ import annotations`: "int", "int | None"
        parts = {a.strip() for a in ann.replace("Optional[", "").rstrip("]").split("|")} - {"None"}
        by_name = {t.__name__: t for t in _TYPE_WORDS}
        return by_name.get(parts.pop()) if len(parts) == 1 else None
    return ann if ann in _TYPE_WORDS else None


def _fits(value: Any, expected: type) -> bool:
    if value is None:
        return True  # None is how a factory is told "use your own choice"
    if expected is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, expected)


def _check_param_types(sig: inspect.Signature, params: dict, name: str) -> None:
    for key, value in params.items():
        p = sig.parameters.get(key)
        expected = _expected_type(p) if p is not None else None
        if expected is None or _fits(value, expected):
            continue
        got = f"the string '{value}'" if isinstance(value, str) else f"{type(value).__name__} {value!r}"
        example = {int: "8", float: "0.5", bool: "true", str: "text"}[expected]
        if p.default not in (p.empty, None):
            example = str(p.default).lower() if isinstance(p.default, bool) else str(p.default)
        raise TctError("bad_param", f"parameter '{key}' of {name} takes {_TYPE_WORDS[expected]}, got {got}",
                       f"write it like --param {key}={example}")


def _call_factory(factory, name: str, params: dict, device, dtype):
    import torch
    if isinstance(factory, torch.nn.Module):
        raise TctError("bad_target", f"'{name}' is an nn.Module instance, not a factory",
                       f"add `def make(): return {name}, (example_input,)` and target "
                       "FILE.py:make")
    if not callable(factory):
        raise TctError("bad_target", f"'{name}' is a {type(factory).__name__}, not a function",
                       "NAME must be a function returning (fn, args) or (fn, args, kwargs)")
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):
        sig = None
    kwargs = dict(params)
    passed_device = passed_dtype = False
    if sig is not None:
        accepted, var_kw = _accepted(sig)
        if not var_kw:
            unknown = [k for k in kwargs if k not in accepted]
            if unknown:
                shown = [a for a in accepted] or ["(none)"]
                close = difflib.get_close_matches(unknown[0], accepted, n=1)
                hint = (f"did you mean '{close[0]}'? " if close else "") + \
                    f"Parameters of {name}: {', '.join(shown)}"
                raise TctError("bad_param",
                               f"unknown parameter '{unknown[0]}' for {name}", hint)
        # Only a factory that names device/dtype gets them (and is trusted to use them);
        # a bare **kwargs may swallow them silently, so the loader moves things itself.
        if device is not None and "device" in accepted and "device" not in kwargs:
            kwargs["device"] = device
            passed_device = True
        if dtype is not None and "dtype" in accepted and "dtype" not in kwargs:
            kwargs["dtype"] = dtype
            passed_dtype = True
        try:
            sig.bind(**kwargs)
        except TypeError as exc:
            missing = [p.name for p in sig.parameters.values()
                       if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD,
                                                              p.KEYWORD_ONLY)
                       and p.name not in kwargs]
            if missing:
                raise TctError("bad_param", f"{name} needs parameter '{missing[0]}'",
                               f"pass it with --param {missing[0]}=VALUE") from None
            raise TctError("bad_param", f"cannot call {name} with these parameters: {exc}",
                           f"parameters of {name}: {', '.join(accepted)}") from None
        _check_param_types(sig, params, name)
    try:
        result = factory(**kwargs)
    except TctError:
        raise
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise TctError("target_raised", f"{name}(...) raised {type(exc).__name__}: {exc}",
                       "the factory failed before tct measured anything; run it by hand "
                       "with the same parameters", stage="factory", cause=exc) from exc
    return result, passed_device, passed_dtype


def _unpack(result, name: str):
    import torch
    if not isinstance(result, (tuple, list)) or len(result) not in (2, 3):
        what = (f"a {len(result)}-tuple" if isinstance(result, (tuple, list))
                else type(result).__name__)
        raise TctError("bad_target",
                       f"factory {name} returned {what}; expected (fn, args) or (fn, args, kwargs)",
                       f"end {name} with `return model, (example_input,)`")
    fn, args = result[0], result[1]
    kwargs = result[2] if len(result) == 3 else None
    if not callable(fn):
        raise TctError("bad_target",
                       f"factory {name} returned a {type(fn).__name__} as fn; it is not callable",
                       "the first item must be an nn.Module or a function")
    if isinstance(args, torch.Tensor):
        args = (args,)
    elif isinstance(args, list):
        args = tuple(args)
    elif not isinstance(args, tuple):
        raise TctError("bad_target",
                       f"factory {name} returned args of type {type(args).__name__}; "
                       "expected a tuple", "wrap a single input as (x,)")
    if kwargs is None:
        kwargs = {}
    if not isinstance(kwargs, dict):
        raise TctError("bad_target",
                       f"factory {name} returned kwargs of type {type(kwargs).__name__}; "
                       "expected a dict", "return (fn, args, {'name': value})")
    return fn, args, dict(kwargs)


def _infer_device_dtype(module, args, kwargs):
    import torch
    tensors = []
    if module is not None:
        tensors += list(module.parameters()) + list(module.buffers())
    tensors += [t for _, t in tensor_leaves((args, kwargs))]
    device = str(tensors[0].device) if tensors else None
    floats = [t for t in tensors if t.is_floating_point()]
    dtype = dtype_name(floats[0].dtype) if floats else None
    return device, dtype


def load_target(spec: str, params: dict | None = None, device: str | None = None,
                dtype: str | None = None) -> LoadedTarget:
    """Import the target, call its factory and move everything where it was asked."""
    import torch
    if params is not None and not isinstance(params, dict):
        raise TctError("bad_param", "target parameters must be a JSON object, "
                       f"got {type(params).__name__}", "pass them as --param NAME=VALUE")
    params = dict(params or {})
    kind, where, name = _parse_spec(spec)
    # Validate device/dtype before running user code: a cuda request on a CPU-only box
    # should fail fast and clearly, not after a slow import.
    dev = parse_device(device)
    dt = parse_dtype(dtype)

    if kind == "builtin":
        from .examples import BUILTINS
        if name not in BUILTINS:
            close = difflib.get_close_matches(name, list(BUILTINS), n=1)
            raise TctError("bad_target",
                           f"no builtin '{name}'; available: {', '.join(BUILTINS)}",
                           f"did you mean builtin:{close[0]}?" if close
                           else "use one of the names above, e.g. builtin:mlp")
        factory, source = BUILTINS[name][0], inspect.getsourcefile(BUILTINS[name][0])
    elif kind == "file":
        module, source = _import_file(where)
        factory = _find_factory(module, name, os.path.basename(where))
    else:
        module, source = _import_module(where)
        factory = _find_factory(module, name, where)

    dev_str = str(dev) if dev is not None else None
    dt_str = dtype_name(dt) if dt is not None else None
    result, passed_device, passed_dtype = _call_factory(factory, name, params, dev_str, dt_str)
    fn, args, kwargs = _unpack(result, name)

    move_dev = None if passed_device else dev
    move_dt = None if passed_dtype else dt
    if move_dev is not None or move_dt is not None:
        if isinstance(fn, torch.nn.Module):
            move_to(fn, move_dev, move_dt)
        args = move_to(args, move_dev, move_dt)
        kwargs = move_to(kwargs, move_dev, move_dt)

    module = fn if isinstance(fn, torch.nn.Module) else None
    inferred_dev, inferred_dt = _infer_device_dtype(module, args, kwargs)
    return LoadedTarget(spec=spec, name=name, fn=fn, args=tuple(args), kwargs=kwargs,
                        module=module, device=dev_str or inferred_dev,
                        dtype=dt_str or inferred_dt,
                        source_file=os.path.abspath(source) if source else None,
                        params=params)


# ------------------------------------------------------------------------ train step

def _loss(out) -> Any:
    """Scalar loss from any output pytree: sum over floating tensor leaves of
    `leaf.float().sum()`. Summing (not averaging) gives every output element a gradient
    of exactly 1, which is representable in every dtype (a mean's 1/numel underflows in
    float16 for large outputs); `.float()` accumulates the loss in float32 so half
    precision outputs do not overflow it. Leaves that do not require grad are skipped."""
    import torch
    terms = [t.float().sum() for _, t in tensor_leaves(out)
             if (t.is_floating_point() or t.is_complex()) and t.requires_grad]
    terms = [t.real if t.is_complex() else t for t in terms]
    if not terms:
        return None
    return torch.stack(terms).sum() if len(terms) > 1 else terms[0]


def make_train_step(loaded: LoadedTarget, fn: Callable | None = None) -> Callable:
    """A callable(*args, **kwargs) running one training step of `fn` (default
    loaded.fn): forward, loss (see `_loss`), backward, then grads set to None (as
    `optimizer.zero_grad(set_to_none=True)` does), returning the detached loss.
    Called with no arguments it uses the loaded example inputs.

    What receives gradients: the module's parameters that require grad, plus any
    floating input tensor that requires grad. If there are none (a plain function, or a
    frozen module), the floating input tensors are made to require grad, so backward
    has something to differentiate (that mutates loaded.args/kwargs). No floating input
    at all -> TctError(unsupported). The module's train()/eval() mode is left as the
    factory set it (dropout in train mode would make eager and compiled differ).
    """
    import torch
    fn = loaded.fn if fn is None else fn
    params = [p for p in loaded.module.parameters() if p.requires_grad] \
        if loaded.module is not None else []

    def grad_inputs():
        return [t for _, t in tensor_leaves((loaded.args, loaded.kwargs))
                if t.requires_grad]

    inputs = grad_inputs()
    if not params and not inputs:
        floats = [t for _, t in tensor_leaves((loaded.args, loaded.kwargs))
                  if t.is_floating_point() or t.is_complex()]
        if not floats:
            what = "a module without trainable parameters" if loaded.module is not None \
                else "a function"
            raise TctError("unsupported",
                           f"--train needs something to differentiate: {loaded.name} is "
                           f"{what} with no floating point tensor input",
                           "return a module with trainable parameters, or pass floating "
                           "inputs with requires_grad=True; or drop --train")

        def make_leaf(t):
            if isinstance(t, torch.Tensor) and (t.is_floating_point() or t.is_complex()):
                return t.detach().requires_grad_(True)
            return t
        loaded.args = tuple(map_leaves(make_leaf, loaded.args))
        loaded.kwargs = map_leaves(make_leaf, loaded.kwargs)
        inputs = grad_inputs()
    targets = params + inputs
    default_args, default_kwargs = loaded.args, loaded.kwargs

    def step(*args, **kwargs):
        if not args and not kwargs:
            args, kwargs = default_args, default_kwargs
        with torch.enable_grad():
            out = fn(*args, **kwargs)
            loss = _loss(out)
            if loss is None or not loss.requires_grad:
                raise TctError("unsupported",
                               f"--train: the output of {loaded.name} has no floating point "
                               "tensor that depends on the parameters or inputs",
                               "return the model's output tensors (not .item(), argmax or "
                               "detached values); or drop --train", stage="train")
            loss.backward()
        for t in targets:
            t.grad = None
        return loss.detach()

    step.__name__ = f"train_step[{_callable_name(fn)}]"
    return step
