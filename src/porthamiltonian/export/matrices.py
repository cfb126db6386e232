r"""Linear pH models as ``.mat``/``.npz`` files in the layout of the pH benchmark collection.

The keys are the collection's ``E, J, R, Q, G, P, S, N`` (PortHamiltonianBenchmarkSystems,
written there with MAT.jl) for

.. math::
    E\dot x = (J - R)Qx + (G - P)u, \qquad y = (G + P)^\top Q x + (S - N)u

(:mod:`porthamiltonian.linear_ph`; :math:`N = -M` of the library's explicit form).
:func:`save_matrices` also writes the names (``states``, ``inputs``, ``outputs``,
``multipliers`` as cell arrays of strings; ``name``) and, for ``.mat``, the state-space
matrices ``A = (J-R)Q, B = G-P, C = (G+P)^\top Q, D = S-N`` of the SLICOT layout, so that
tools reading only those (pyMOR's ``LTIModel.from_mat_file``, MATLAB's ``dss``) read the
same system.  (pyMOR 2026.1's ``PHLTIModel.from_mat_file``/``to_mat_file`` are inherited
from ``LTIModel`` and do not handle the pH keys; ``PHLTIModel.from_matrices(**keys)``
does.)

:func:`load_matrices` reads such files — MATLAB 5/7 through SciPy, v7.3 (HDF5, MAT.jl's
default) through h5py when it is installed — the subsets the collection ships (``B`` for
``G``; ``E = I``, ``Q = I``, ``P = S = N = 0`` when absent) and a state-space file with
only ``A, B, C[, D, E]`` (then a passive model is written in pH form by
:func:`~porthamiltonian.export.passive.from_state_space`).  Files are data, never code:
``.npz`` is read with ``allow_pickle=False``, the declared sizes are checked before any
array is read, and every matrix is checked for shape, finiteness and the pH structure
(``LinearPH.to_system(check=True)``, the library's own check).
"""

from __future__ import annotations

import logging
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sps

from .._matrices import to_dense
from ..errors import ModelError, StructureError
from ..linear_ph import NAMES, LinearPH, linear_ph

__all__ = ["save_matrices", "load_matrices", "read_matrices"]

log = logging.getLogger(__name__)

SUFFIXES = (".mat", ".npz")
NAME_KEYS = ("states", "inputs", "outputs", "multipliers")
#: the SLICOT state-space keys (pyMOR's LTIModel.to_mat_file writes A, B, C, D, E)
STATE_SPACE = ("A", "B", "C", "D")
DEFAULT_MAX_MB = 200.0


# ---------------------------------------------------------------------- save
def save_matrices(system: Any, path: str | Path, *, state_space: bool = True) -> Path:
    """Write ``system`` (linear PHS, DescriptorPHS or LinearPH) to ``path`` (.mat or .npz).

    ``.mat`` (MATLAB 5 format, ``scipy.io.savemat``) keeps SciPy-sparse matrices sparse;
    ``.npz`` stores a sparse matrix ``K`` as ``K.row``, ``K.col``, ``K.data``, ``K.shape``
    (COO) and a dense one as ``K``.  With ``state_space`` (``.mat`` only) ``A, B, C, D``
    are written too (module docstring).  Returns the path.
    """
    path = Path(path)
    suffix = _suffix(path)
    lin = linear_ph(system)
    mats = lin.matrices()
    names = {k: list(getattr(lin, k)) for k in NAME_KEYS if getattr(lin, k)}
    if suffix == ".mat":
        import scipy.io as sio

        out: dict[str, Any] = {k: _csc(v) for k, v in mats.items()}
        if state_space:
            out.update(zip(STATE_SPACE, map(_csc, lin.state_space()), strict=True))
        out.update({k: np.array(v, dtype=object) for k, v in names.items()})
        if lin.name:
            out["name"] = lin.name
        try:
            sio.savemat(path, out, do_compression=True, oned_as="column")
        except OSError as exc:
            raise ModelError(f"cannot write {path}: {exc.strerror or exc}") from exc
        return path
    arrays: dict[str, np.ndarray] = {}
    for key, M in mats.items():
        if sps.issparse(M):
            coo = sps.coo_array(M)
            arrays.update({f"{key}.row": coo.row.astype(np.int64),
                           f"{key}.col": coo.col.astype(np.int64),
                           f"{key}.data": np.asarray(coo.data, dtype=float),
                           f"{key}.shape": np.array(coo.shape, dtype=np.int64)})
        else:
            arrays[key] = np.asarray(M, dtype=float)
    arrays.update({k: np.array(v, dtype=str) for k, v in names.items()})
    if lin.name:
        arrays["name"] = np.array(lin.name, dtype=str)
    try:
        with path.open("wb") as fh:  # a file handle: np.savez would append .npz to a str
            np.savez_compressed(fh, **arrays)
    except OSError as exc:
        raise ModelError(f"cannot write {path}: {exc.strerror or exc}") from exc
    return path


def _csc(M: Any) -> Any:
    return sps.csc_array(M) if sps.issparse(M) else np.asarray(M, dtype=float)


# ---------------------------------------------------------------------- load
def load_matrices(path: str | Path, *, max_mb: float = DEFAULT_MAX_MB,
                  check: bool = True) -> LinearPH:
    """The :class:`LinearPH` stored in ``path`` (.mat or .npz; module docstring).

    ``max_mb`` bounds the file and the memory its arrays declare.  With ``check`` the
    pH structure is verified by building the library's model.  Which keys were read and
    which took their defaults is logged (logger ``porthamiltonian.export.matrices``) and
    returned by :func:`read_matrices`.  Raises :class:`ModelError` for anything wrong
    with the file, naming the key and the fix.
    """
    return read_matrices(path, max_mb=max_mb, check=check)[0]


def read_matrices(path: str | Path, *, max_mb: float = DEFAULT_MAX_MB,
                  check: bool = True) -> tuple[LinearPH, dict[str, str]]:
    """:func:`load_matrices` and, per matrix, where it came from (``"file"``, ``"file B"``,
    ``"identity"``, ``"zero"``, ``"state space"``)."""
    path = Path(path)
    suffix = _suffix(path)
    if not path.is_file():
        raise ModelError(f"no file {path}")
    size_mb = path.stat().st_size / 1e6
    if size_mb > max_mb:
        raise ModelError(f"{path} is {size_mb:.1f} MB, more than max_mb={max_mb:g}; "
                         "raise max_mb if you trust the file")
    raw = _read_mat(path, max_mb) if suffix == ".mat" else _read_npz(path, max_mb)
    lin, found = _assemble(path, raw, check)
    log.info("%s: %s", path.name, ", ".join(f"{k} ({v})" for k, v in found.items()))
    if check:
        try:
            lin.to_system(check=True)
        except StructureError as exc:
            raise StructureError(f"{path.name}: {exc}") from exc
    return lin, found


def _suffix(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ModelError(f"{path}: the matrices go to a .mat (MATLAB) or .npz (NumPy) file, "
                         f"not {suffix or 'a file without suffix'}")
    return suffix


def _read_mat(path: Path, max_mb: float) -> dict[str, Any]:
    import scipy.io as sio

    try:
        listing = sio.whosmat(path)
    except NotImplementedError:  # SciPy's answer for a v7.3 (HDF5) file
        return _read_mat73(path, max_mb)
    except Exception as exc:  # scipy raises ValueError, TypeError, … for non-MAT bytes
        raise ModelError(f"{path} is not a MATLAB .mat file ({exc}); write it with "
                         "scipy.io.savemat, MATLAB's save or MAT.jl") from exc
    for key, shape, cls in listing:
        _check_declared(path, key, tuple(shape), cls == "sparse", max_mb)
    try:
        data = sio.loadmat(path, squeeze_me=False, mat_dtype=False)
    except Exception as exc:
        raise ModelError(f"{path}: the .mat file cannot be read ({exc})") from exc
    return {k: v for k, v in data.items() if not k.startswith("__")}


def _read_mat73(path: Path, max_mb: float) -> dict[str, Any]:
    """A MATLAB v7.3 file (HDF5 after a 512-byte header; MAT.jl's default) through h5py.

    Each variable is a dataset with the attribute ``MATLAB_class`` and the transposed
    shape (MATLAB is column-major); a sparse matrix is a group with ``MATLAB_sparse`` =
    rows and the CSC arrays ``data``, ``ir``, ``jc``; a cell array holds references into
    ``#refs#``; ``char`` is UTF-16 code units.  Structs and other classes are skipped.
    """
    try:
        import h5py
    except ImportError as exc:
        raise ModelError(
            f"{path} is a MATLAB v7.3 (HDF5) file, as MAT.jl writes by default; reading it "
            "needs h5py (pip install h5py), or save it as version 7 (MATLAB: save(file, "
            "..., '-v7')) or as .npz") from exc
    out: dict[str, Any] = {}
    try:
        with h5py.File(path, "r") as f:
            for key, obj in f.items():
                if key.startswith("#"):
                    continue
                if isinstance(obj, h5py.Group):
                    if "MATLAB_sparse" in obj.attrs:
                        out[key] = _mat73_sparse(path, key, obj, max_mb)
                    continue
                cls = obj.attrs.get("MATLAB_class", b"")
                cls = cls.decode() if isinstance(cls, bytes) else str(cls)
                if int(np.asarray(obj.attrs.get("MATLAB_empty", 0))):
                    out[key] = np.zeros((0, 0))
                    continue
                _check_declared(path, key, tuple(obj.shape), False, max_mb,
                                obj.dtype.itemsize)
                if cls == "char":
                    out[key] = np.array(_mat73_chars(obj[()]))
                elif cls == "cell":
                    cells = [f[ref] for ref in np.asarray(obj[()]).T.ravel()]
                    out[key] = np.array([np.array(_mat73_chars(c[()])) for c in cells],
                                        dtype=object)
                else:
                    out[key] = np.asarray(obj[()]).T
    except ModelError:
        raise
    except Exception as exc:
        raise ModelError(f"{path}: the MATLAB v7.3 (HDF5) file cannot be read ({exc})") from exc
    return out


def _mat73_sparse(path: Path, key: str, group: Any, max_mb: float) -> Any:
    rows, jc = int(np.asarray(group.attrs["MATLAB_sparse"])), group["jc"]
    _check_declared(path, key, (rows, jc.shape[0] - 1), True, max_mb)
    for part in ("data", "ir"):
        if part in group:
            _check_declared(path, f"{key}.{part}", tuple(group[part].shape), False, max_mb)
    jc = np.asarray(jc[()], dtype=np.int64)
    data = np.asarray(group["data"][()]) if "data" in group else np.zeros(0)
    ir = np.asarray(group["ir"][()], dtype=np.int64) if "ir" in group else np.zeros(0, int)
    return sps.csc_array((data, ir, jc), shape=(rows, jc.size - 1))


def _mat73_chars(codes: Any) -> list[str]:
    """The rows of a MATLAB char array stored as UTF-16 codes (transposed)."""
    arr = np.atleast_2d(np.asarray(codes)).T
    return ["".join(map(chr, row)).rstrip("\x00") for row in arr.astype(np.int64)]


def _read_npz(path: Path, max_mb: float) -> dict[str, Any]:
    try:
        with zipfile.ZipFile(path) as zf:
            for info in zf.infolist():  # sizes before anything is decompressed
                if info.file_size > max_mb * 1e6:
                    raise ModelError(f"{path}: the array {info.filename!r} unpacks to "
                                     f"{info.file_size / 1e6:.1f} MB, more than "
                                     f"max_mb={max_mb:g}")
                with zf.open(info) as fh:
                    version = np.lib.format.read_magic(fh)
                    read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                            else np.lib.format.read_array_header_2_0)
                    shape, _, dtype = read(fh)
                key = info.filename.removesuffix(".npy")
                if dtype.hasobject:
                    raise ModelError(f"{path}: the array {key!r} holds Python objects, which "
                                     "would need pickle to read; store numbers (and names "
                                     "as string arrays) only")
                _check_declared(path, key, tuple(shape), False, max_mb, dtype.itemsize)
    except ModelError:
        raise
    except Exception as exc:  # BadZipFile, a bad .npy header, …
        raise ModelError(f"{path} is not a NumPy .npz archive of plain arrays ({exc}); "
                         "write it with numpy.savez") from exc
    try:
        with np.load(path, allow_pickle=False) as npz:
            return {k: npz[k] for k in npz.files}
    except Exception as exc:
        raise ModelError(f"{path}: the .npz file cannot be read ({exc})") from exc


def _check_declared(path: Path, key: str, shape: tuple[int, ...], sparse: bool,
                    max_mb: float, itemsize: int = 8) -> None:
    """Refuse a declared size beyond ``max_mb`` before reading (a header can lie)."""
    if any(int(d) < 0 for d in shape):
        raise ModelError(f"{path}: {key!r} declares the negative shape {shape}")
    # sparse: an n × n identity needs ≈ 16 n bytes, the least a usable matrix needs
    need = 16.0 * max(shape, default=0) if sparse else float(itemsize) * float(
        np.prod([float(d) for d in shape]))
    if need > max_mb * 1e6:
        dims = "×".join(str(int(d)) for d in shape)
        raise ModelError(f"{path}: {key!r} declares a {dims} array ({need / 1e6:.3g} MB), "
                         f"more than max_mb={max_mb:g}; raise max_mb if you trust the file")


def _assemble(path: Path, raw: dict[str, Any], check: bool) -> tuple[LinearPH, dict[str, str]]:
    """The LinearPH from the arrays of a file, with defaults for the keys it lacks."""
    mats = _matrices(path, raw)
    if "J" not in mats:
        if "A" in mats and "B" in mats:
            return _from_state_space_keys(path, mats, raw, check)
        raise ModelError(f"{path}: no matrix J (keys found: {', '.join(sorted(raw)) or 'none'});"
                         " a pH file has E, J, R, Q, G, P, S, N (G may be named B), a "
                         "state-space file A, B, C, D, E")
    found: dict[str, str] = {}
    if "G" not in mats and "B" in mats:
        mats["G"], found["G"] = mats.pop("B"), "file B"
    for key in ("J", "G"):
        if key not in mats:
            raise ModelError(f"{path}: no matrix {key}; the file has "
                             f"{', '.join(sorted(mats)) or 'no matrices'}")
    n, m = mats["J"].shape[0], mats["G"].shape[1] if mats["G"].ndim == 2 else 1
    sparse = any(sps.issparse(v) for v in mats.values())
    for key in NAMES:
        if key in mats:
            found.setdefault(key, "file")
            continue
        size = m if key in ("S", "N") else n
        if key in ("E", "Q"):
            mats[key] = sps.eye_array(n, format="csr") if sparse else np.eye(n)
            found[key] = "identity"
        else:
            shape = (n, m) if key == "P" else (size, size)
            mats[key] = sps.csr_array(shape) if sparse else np.zeros(shape)
            found[key] = "zero"
    names = _names(path, raw)
    lin = LinearPH(**{k: mats[k] for k in NAMES}, **names)
    return lin, {k: found[k] for k in NAMES}


def _matrices(path: Path, raw: dict[str, Any]) -> dict[str, Any]:
    """The numeric matrices among the arrays (npz COO triplets joined), checked."""
    out: dict[str, Any] = {}
    for key in (*NAMES, *STATE_SPACE):
        if f"{key}.data" in raw:
            out[key] = _coo(path, key, raw)
        elif key in raw:
            out[key] = _matrix(path, key, raw[key])
    return out


def _matrix(path: Path, key: str, value: Any) -> Any:
    if sps.issparse(value):
        M = sps.csr_array(value)
        data = M.data
    else:
        M = np.asarray(value)
        if M.dtype.kind not in "biuf":
            raise ModelError(f"{path}: {key} is not a real numeric matrix (it holds "
                             f"{M.dtype.name} data: a cell, struct, text or complex array); "
                             "store it as a real double matrix")
        if M.ndim != 2:
            raise ModelError(f"{path}: {key} has {M.ndim} dimensions; store it as a 2-D "
                             "matrix (a column vector as n×1)")
        data = M
    if data.dtype.kind not in "biuf":
        raise ModelError(f"{path}: {key} is not a real numeric matrix ({data.dtype.name}); "
                         "store it as a real double matrix")
    bad = ~np.isfinite(data)
    if bad.any():
        if sps.issparse(M):
            coo = sps.coo_array(M)
            i = int(np.flatnonzero(~np.isfinite(coo.data))[0])
            at, val = (int(coo.row[i]), int(coo.col[i])), coo.data[i]
        else:
            idx = np.argwhere(bad)[0]
            at, val = tuple(int(v) for v in idx), M[tuple(idx)]
        raise ModelError(f"{path}: {key}[{at[0]}, {at[1]}] is {val} ({int(bad.sum())} "
                         "entries are NaN or infinite); every entry must be a finite number")
    return M.astype(float) if not sps.issparse(M) else M.astype(float)


def _coo(path: Path, key: str, raw: dict[str, Any]) -> Any:
    try:
        row, col, data, shape = (np.asarray(raw[f"{key}.{p}"]) for p in
                                 ("row", "col", "data", "shape"))
        shape_t = (int(shape[0]), int(shape[1]))
        M = sps.coo_array((data, (row, col)), shape=shape_t).tocsr()
    except Exception as exc:
        raise ModelError(f"{path}: the sparse matrix {key} (keys {key}.row, {key}.col, "
                         f"{key}.data, {key}.shape) is malformed ({exc})") from exc
    return _matrix(path, key, M)


def _names(path: Path, raw: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in NAME_KEYS:
        if key in raw:
            out[key] = tuple(_strings(path, key, raw[key]))
    if "name" in raw:
        name = _strings(path, "name", raw["name"])
        out["name"] = name[0] if len(name) == 1 else ""
    return out


def _strings(path: Path, key: str, value: Any) -> list[str]:
    """Names from a cell array of char (MAT), a char matrix (MAT) or a str array (npz)."""
    arr = np.asarray(value)
    if arr.dtype == object:  # a MATLAB cell array: each cell a char array
        return [_strings(path, key, v)[0] if np.asarray(v).size else "" for v in arr.ravel()]
    if arr.dtype.kind != "U":
        raise ModelError(f"{path}: {key} should hold names (strings), not "
                         f"{arr.dtype.name} data")
    return [str(s).rstrip() for s in arr.ravel()] if arr.ndim else [str(arr)]


def _from_state_space_keys(path: Path, mats: dict[str, Any], raw: dict[str, Any],
                           check: bool) -> tuple[LinearPH, dict[str, str]]:
    """A file with only A, B, C[, D, E] (SLICOT / pyMOR's LTIModel.to_mat_file): through
    the KYP inequality of :func:`from_state_space` (the model must be passive)."""
    from .passive import from_state_space

    A, B = (to_dense(mats[k]) for k in ("A", "B"))
    C = to_dense(mats["C"]) if "C" in mats else B.T
    D = to_dense(mats["D"]) if "D" in mats else np.zeros((C.shape[0], B.shape[1]))
    E = to_dense(mats["E"]) if "E" in mats else None
    names = _names(path, raw)
    try:
        system = from_state_space(A, B, C, D, E=E, states=names.get("states"),
                                  inputs=names.get("inputs"), outputs=names.get("outputs"),
                                  name=names.get("name", ""))
    except ModelError as exc:
        raise ModelError(f"{path} holds a state-space model (A, B, C, D, E) and no pH "
                         f"matrices; writing it in pH form failed: {exc}") from exc
    found = {"A": "file", "B": "file", "C": "file" if "C" in mats else "Bᵀ",
             "D": "file" if "D" in mats else "zero", "E": "file" if "E" in mats else "identity"}
    return linear_ph(system), found

