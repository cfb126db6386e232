"""Linear pH models as .mat/.npz files in the benchmark-collection layout."""

from __future__ import annotations

import io
import sys
import zipfile

import numpy as np
import pytest
import scipy.io as sio
import scipy.sparse as sps
from linear_ph_systems import (
    elongation_chain,
    lin_tf,
    msd50,
    parallel_capacitors,
    pymor_tf,
    tf_error,
)

from porthamiltonian.errors import ModelError
from porthamiltonian.export.matrices import load_matrices, read_matrices, save_matrices
from porthamiltonian.linear_ph import NAMES, LinearPH, linear_ph

pymor_iosys = pytest.importorskip("pymor.models.iosys")


@pytest.mark.parametrize("suffix", [".mat", ".npz"])
def test_msd_chain_round_trip_is_bitwise(tmp_path, suffix):
    ref = linear_ph(msd50())
    path = save_matrices(msd50(), tmp_path / f"msd{suffix}")
    back, found = read_matrices(path)
    for key in NAMES:
        got = getattr(back, key)
        assert got.dtype == np.float64 and np.array_equal(got, getattr(ref, key)), key
    assert set(found.values()) == {"file"}
    assert (back.states, back.inputs, back.outputs, back.name) == (
        ref.states, ref.inputs, ref.outputs, ref.name)
    assert back.states[:2] == ("q1", "p1") and back.inputs == ("F1", "F2")


def test_mat_file_read_by_scipy_and_pymor(tmp_path):
    ref = linear_ph(msd50())
    path = save_matrices(msd50(), tmp_path / "msd.mat")
    raw = sio.loadmat(path)  # the library that owns the format
    for key in NAMES:
        assert np.array_equal(raw[key], getattr(ref, key)), key
    assert [str(c[0]) for c in raw["states"].ravel()][:3] == ["q1", "p1", "q2"]
    # pyMOR: PHLTIModel from the pH keys, LTIModel.from_mat_file from the A, B, C, D, E keys
    ph = pymor_iosys.PHLTIModel.from_matrices(**{k: raw[k] for k in NAMES})
    lti = pymor_iosys.LTIModel.from_mat_file(str(path))
    for model in (ph, lti):
        assert tf_error(lin_tf(msd50()), pymor_tf(model)) < 1e-12


@pytest.mark.slow
def test_mat_file_transfer_function_by_pymor_itself(tmp_path):
    path = save_matrices(msd50(), tmp_path / "msd.mat")
    lti = pymor_iosys.LTIModel.from_mat_file(str(path))
    assert tf_error(lin_tf(msd50()), pymor_tf(lti, exact=True), [0.01, 0.3, 1.0, 100.0]) < 1e-12


def test_file_written_by_pymor_to_mat_file_is_read(tmp_path):
    # pyMOR's to_mat_file writes the state-space keys A, B, C, D, E (PHLTIModel inherits
    # it from LTIModel); load_matrices writes that passive model in pH form
    # (the 50-cell chain is not minimal — a rigid mode — so its A, B, C, D have no pH form
    # with Q ≻ 0; a chain in elongation coordinates is, see test_passive.py)
    chain = elongation_chain(n_cells=6)
    lin = linear_ph(chain)
    A, B, C, D = lin.state_space()
    model = pymor_iosys.LTIModel.from_matrices(A, B, C, D)
    path = tmp_path / "chain.mat"
    model.to_mat_file(str(path))
    assert set(sio.whosmat(path)[i][0] for i in range(3)) <= {"A", "B", "C", "D", "E"}
    back, found = read_matrices(path)
    assert found["A"] == "file" and found["E"] == "identity"
    assert tf_error(pymor_tf(model), lin_tf(back)) < 1e-12
    assert np.linalg.eigvalsh(back.Q)[0] > 0


def test_collection_subset_gets_defaults(tmp_path):
    ref = linear_ph(msd50())
    path = tmp_path / "subset.mat"
    sio.savemat(path, {"J": ref.J, "R": ref.R, "B": ref.G})  # no Q, E, P, S, N, names
    back, found = read_matrices(path)
    assert found == {"E": "identity", "J": "file", "R": "file", "Q": "identity",
                     "G": "file B", "P": "zero", "S": "zero", "N": "zero"}
    assert np.array_equal(back.Q, np.eye(100)) and np.array_equal(back.G, ref.G)
    assert not back.P.any() and back.S.shape == (2, 2) and back.states == ()
    sio.savemat(path, {"J": ref.J, "R": ref.R, "Q": ref.Q, "B": ref.G})
    assert tf_error(lin_tf(msd50()), lin_tf(load_matrices(path))) == 0.0


@pytest.mark.parametrize("suffix", [".mat", ".npz"])
def test_sparse_matrices_stay_sparse(tmp_path, suffix):
    ref = linear_ph(msd50())
    sparse = LinearPH(**{k: sps.csr_array(v) for k, v in ref.matrices().items()},
                      states=ref.states, inputs=ref.inputs, outputs=ref.outputs)
    back = load_matrices(save_matrices(sparse, tmp_path / f"s{suffix}"))
    for key in NAMES:
        got = getattr(back, key)
        assert sps.issparse(got), key
        assert (abs(got - getattr(sparse, key))).max() == 0.0, key


@pytest.mark.parametrize("suffix", [".mat", ".npz"])
def test_descriptor_system_round_trip(tmp_path, suffix):
    ref = linear_ph(parallel_capacitors())
    back = load_matrices(save_matrices(parallel_capacitors(), tmp_path / f"dae{suffix}"))
    assert np.linalg.matrix_rank(back.E) == 2 and back.states == ("q1", "q2", "link")
    assert back.multipliers == ("link",)
    for key in NAMES:
        assert np.array_equal(getattr(back, key), getattr(ref, key)), key
    assert type(back.to_system()).__name__ == "DescriptorPHS"


# ---------------------------------------------------------------------- hostile files
def _npz_with_header(path, key: str, header: str) -> None:
    """A .npz whose member declares ``header`` (dict text) and holds no data."""
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, eval(header))  # noqa: S307 - test literal
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(f"{key}.npy", buf.getvalue())


def test_npz_with_object_array_is_refused(tmp_path):
    path = tmp_path / "obj.npz"
    np.savez(path, J=np.array([[0.0, 1.0], [-1.0, 0.0]]), G=np.array([{"x": 1}], dtype=object))
    with pytest.raises(ModelError, match=r"'G' holds Python objects.*pickle"):
        load_matrices(path)


def test_text_file_named_mat_is_refused(tmp_path):
    path = tmp_path / "fake.mat"
    path.write_text("J = [0 1; -1 0]\n")
    with pytest.raises(ModelError, match=r"fake.mat is not a MATLAB .mat file"):
        load_matrices(path)


def test_truncated_files_are_refused(tmp_path):
    for suffix in (".mat", ".npz"):
        good = save_matrices(msd50(), tmp_path / f"good{suffix}")
        bad = tmp_path / f"cut{suffix}"
        bad.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
        with pytest.raises(ModelError, match="cut"):
            load_matrices(bad)


def test_huge_declared_shape_is_refused_before_reading(tmp_path):
    path = tmp_path / "huge.npz"
    _npz_with_header(path, "J", "{'descr': '<f8', 'fortran_order': False, "
                                "'shape': (1000000000, 1000000000)}")
    with pytest.raises(ModelError, match=r"'J' declares a 1000000000×1000000000 array"):
        load_matrices(path)


def test_file_larger_than_max_mb_is_refused(tmp_path):
    path = save_matrices(msd50(), tmp_path / "msd.npz")
    with pytest.raises(ModelError, match=r"more than max_mb=0.0001"):
        load_matrices(path, max_mb=1e-4)


def test_nan_entry_is_named(tmp_path):
    lin = linear_ph(msd50()).dense()
    R = lin.R.copy()
    R[3, 3] = np.nan
    path = tmp_path / "nan.mat"
    sio.savemat(path, {**lin.matrices(), "R": R})
    with pytest.raises(ModelError, match=r"R\[3, 3\] is nan"):
        load_matrices(path)


def test_non_skew_J_is_named(tmp_path):
    lin = linear_ph(msd50())
    J = lin.J.copy()
    J[0, 1] = 2.0
    path = tmp_path / "J.npz"
    np.savez(path, **{**lin.matrices(), "J": J}, states=np.array(lin.states))
    with pytest.raises(ModelError, match=r"J\.npz: J is not skew-symmetric.*q1.*p1"):
        load_matrices(path)


def test_indefinite_dissipation_is_named(tmp_path):
    lin = linear_ph(msd50())
    R = lin.R.copy()
    R[1, 1] = -1.0
    path = tmp_path / "R.mat"
    sio.savemat(path, {**lin.matrices(), "R": R, "states": np.array(lin.states, dtype=object)})
    with pytest.raises(ModelError, match=r"not positive semi-definite.*p1"):
        load_matrices(path)


def test_wrong_shape_and_wrong_suffix(tmp_path):
    lin = linear_ph(msd50())
    path = tmp_path / "shape.mat"
    sio.savemat(path, {"J": lin.J, "R": lin.R[:5, :5], "G": lin.G})
    with pytest.raises(ModelError, match=r"matrix R is 5×5.*needs 100×100"):
        load_matrices(path)
    with pytest.raises(ModelError, match=r"\.mat \(MATLAB\) or \.npz"):
        save_matrices(msd50(), tmp_path / "x.csv")
    sio.savemat(path, {"J": lin.J, "G": np.array(["abc"])})
    with pytest.raises(ModelError, match="G is not a real numeric matrix"):
        load_matrices(path)


def _write_mat73(path, arrays: dict, names: dict) -> None:
    """A MATLAB v7.3 file as MATLAB and MAT.jl lay it out: a 512-byte text header, then
    HDF5 with each variable transposed and tagged MATLAB_class; sparse as a CSC group;
    a cell of names as references into #refs#."""
    h5py = pytest.importorskip("h5py")
    with h5py.File(path, "w", userblock_size=512) as f:
        for key, M in arrays.items():
            if sps.issparse(M):
                csc = sps.csc_array(M)
                g = f.create_group(key)
                g.attrs["MATLAB_class"] = np.bytes_("double")
                g.attrs["MATLAB_sparse"] = np.uint64(csc.shape[0])
                g["data"], g["ir"] = csc.data, csc.indices.astype(np.uint64)
                g["jc"] = csc.indptr.astype(np.uint64)
            else:
                f[key] = np.asarray(M).T
                f[key].attrs["MATLAB_class"] = np.bytes_("double")
        refs = f.create_group("#refs#")
        for key, strings in names.items():
            ref_list = []
            for i, s in enumerate(strings):
                ds = refs.create_dataset(f"{key}{i}", data=np.array([[ord(c)] for c in s],
                                                                    dtype=np.uint16))
                ds.attrs["MATLAB_class"] = np.bytes_("char")
                ref_list.append(ds.ref)
            cell = f.create_dataset(key, data=np.array([ref_list], dtype=h5py.ref_dtype).T)
            cell.attrs["MATLAB_class"] = np.bytes_("cell")
    header = b"MATLAB 7.3 MAT-file, Platform: test, HDF5 schema 1.00 .".ljust(116)
    with open(path, "r+b") as fh:
        fh.write(header + b"\0" * 8 + b"\x00\x02IM")


def test_matlab_v73_hdf5_file_is_read(tmp_path):
    ref = linear_ph(msd50())
    path = tmp_path / "v73.mat"
    _write_mat73(path, {"J": ref.J, "R": sps.csr_array(ref.R), "Q": ref.Q, "B": ref.G},
                 {"states": ref.states, "inputs": ref.inputs})
    with pytest.raises(NotImplementedError):  # SciPy's reader stops at v7.3
        sio.loadmat(path)
    back, found = read_matrices(path)
    assert found["G"] == "file B" and found["E"] == "identity"
    assert np.array_equal(back.J, ref.J) and np.array_equal(back.G, ref.G)
    assert sps.issparse(back.R) and (abs(back.R - ref.R)).max() == 0.0
    assert back.states == ref.states and back.inputs == ("F1", "F2") and back.outputs == ()


def test_matlab_v73_without_h5py_names_the_fix(tmp_path, monkeypatch):
    path = tmp_path / "v73.mat"
    _write_mat73(path, {"J": np.zeros((2, 2)), "B": np.ones((2, 1))}, {})
    monkeypatch.setitem(sys.modules, "h5py", None)
    with pytest.raises(ModelError, match=r"v7.3 \(HDF5\) file.*pip install h5py.*-v7"):
        load_matrices(path)


@pytest.mark.parametrize("suffix", [".mat", ".npz"])
def test_damaged_files_give_model_errors_only(tmp_path, suffix):
    good = save_matrices(linear_ph(elongation_chain(3)), tmp_path / f"g{suffix}").read_bytes()
    rng = np.random.default_rng(7)
    errors = 0
    for trial in range(60):
        data = bytearray(good)
        for i in rng.integers(0, len(data), size=int(rng.integers(1, 6))):
            data[i] = int(rng.integers(0, 256))
        if trial % 5 == 0:
            data = data[: int(rng.integers(0, len(data)))]
        path = tmp_path / f"bad{suffix}"
        path.write_bytes(bytes(data))
        try:
            load_matrices(path)
        except ModelError:
            errors += 1  # anything else fails the test
    assert errors >= 30  # most damage is caught (a flipped byte in a name may pass)
