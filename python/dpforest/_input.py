"""Input conversion for the estimators: the public domains the caller declares, the feature matrix
(numeric values and categorical codes as float64), class labels and clipping at predict.

Nothing here reads the data to decide a domain: category lists, class lists and bounds are the
caller's (public) declarations; a missing one is derived from the data only with an explicit
opt-in (on_missing_domain='warn'), which the estimator reports.
"""
import numbers

import numpy as np


def plain(v):
    """A numpy scalar as the Python value it holds (so 3, 3.0 and np.int64(3) are one dict key)."""
    return v.item() if isinstance(v, np.generic) else v


def category_name(v):
    """The schema's text of a category or class value: strings as they are, integral numbers without
    a decimal point (3.0 -> '3', as the C++ core names numbers), other numbers in shortest form."""
    v = plain(v)
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, numbers.Real):
        f = float(v)
        if f.is_integer() and abs(f) < 2 ** 53:
            return str(int(f))
        return repr(f)
    return str(v)


def feature_names(X, n_features):
    """Column names of a DataFrame (as strings), else x0, x1, ..."""
    cols = getattr(X, "columns", None)
    if cols is not None and len(cols) == n_features:
        return [str(c) for c in cols]
    return [f"x{f}" for f in range(n_features)]


def feature_index(key, names, what):
    """A feature given by index or by name -> its index."""
    if isinstance(key, numbers.Integral) and not isinstance(key, bool):
        if not 0 <= key < len(names):
            raise ValueError(f"{what}: feature index {key!r} is not in 0..{len(names) - 1}")
        return int(key)
    if isinstance(key, str) and key in names:
        return names.index(key)
    raise ValueError(f"{what}: {key!r} is neither a feature index (0..{len(names) - 1}) nor a feature name")


def category_lists(categories, names):
    """categories= ({feature index or name: [values]}) -> per feature its value list (None: numeric)."""
    out = [None] * len(names)
    if categories is None:
        return out
    if not isinstance(categories, dict):
        raise ValueError("categories must be a dict {feature index or name: [category values]}")
    for key, values in categories.items():
        f = feature_index(key, names, "categories")
        values = [plain(v) for v in values]
        if not values:
            raise ValueError(f"categories: feature {key!r} has an empty category list")
        seen = {}
        for v in values:
            if v in seen:
                raise ValueError(f"categories: feature {key!r} lists {v!r} twice")
            seen[v] = len(seen)
        out[f] = values
    return out


def _columns(X):
    """X as a list of 1-D arrays, one per feature, plus the row count."""
    if hasattr(X, "columns") and hasattr(X, "__getitem__") and not isinstance(X, np.ndarray):
        cols = [np.asarray(X[c]) for c in X.columns]  # a DataFrame: each column in its own dtype
        n = len(cols[0]) if cols else 0
        return cols, n
    A = np.asarray(X)
    if A.ndim != 2:
        raise ValueError(f"Expected 2D array, got {A.ndim}D array instead: reshape your data "
                         "(X must be (n_samples, n_features))")
    return [A[:, f] for f in range(A.shape[1])], A.shape[0]


def is_plain_float_matrix(X):
    """A float64 ndarray (any layout): passed to the core as it is, without a copy."""
    return isinstance(X, np.ndarray) and X.dtype == np.float64 and X.ndim == 2


def encode(X, names, cat_values):
    """X -> a float64 matrix: numeric columns as numbers, categorical ones as codes 0..k-1 of their
    declared values. Unknown categories and text in a numeric column fail naming the column and row."""
    cols, n = _columns(X)
    out = np.empty((n, len(cols)), dtype=np.float64)
    for f, col in enumerate(cols):
        values = cat_values[f]
        if values is None:
            try:
                out[:, f] = col.astype(np.float64)
            except (TypeError, ValueError):
                bad = next(r for r, v in enumerate(col) if not _is_number(v))
                raise ValueError(f"column {names[f]!r} (index {f}), row {bad}: {plain(col[bad])!r} is not a number "
                                 "(declare the feature's values in categories= if it is categorical)") from None
            continue
        code = {v: c for c, v in enumerate(values)}
        uniq, inverse = _unique(col)
        mapped = np.empty(len(uniq), dtype=np.float64)
        for u, v in enumerate(uniq):
            c = code.get(plain(v))
            if c is None:
                row = int(np.flatnonzero(inverse == u)[0])
                raise ValueError(f"column {names[f]!r} (index {f}), row {row}: value {category_name(v)} is not one of "
                                 f"its declared categories ({len(values)} given)")
            mapped[u] = c
        out[:, f] = mapped[inverse]
    return out


def _is_number(v):
    try:
        float(v)
        return True
    except (TypeError, ValueError):
        return False


def _unique(col):
    """Distinct values of a column and each row's index into them (object columns of mixed types too)."""
    try:
        return np.unique(col, return_inverse=True)
    except TypeError:  # values of types numpy cannot sort together
        index, uniq = {}, []
        inverse = np.empty(len(col), dtype=np.intp)
        for r, v in enumerate(col):
            key = plain(v)
            if key not in index:
                index[key] = len(uniq)
                uniq.append(v)
            inverse[r] = index[key]
        return np.array(uniq, dtype=object), inverse


def label_array(values):
    """classes_ as an array that keeps each label's type (numbers stay numbers, text stays text)."""
    values = [plain(v) for v in values]
    if all(isinstance(v, str) for v in values) or all(isinstance(v, numbers.Number) for v in values):
        return np.asarray(values)
    return np.array(values, dtype=object)


def encode_labels(y, classes):
    """y -> class indices into `classes` (any label type); labels not in classes fail, listing them."""
    index = {plain(c): i for i, c in enumerate(classes)}
    uniq, inverse = _unique(np.asarray(y))
    codes = np.empty(len(uniq), dtype=np.float64)
    unknown = []
    for u, v in enumerate(uniq):
        i = index.get(plain(v))
        if i is None:
            unknown.append(plain(v))
        else:
            codes[u] = i
    if unknown:
        raise ValueError(f"y holds labels {unknown} that are not in classes={[plain(c) for c in classes]}")
    return codes[inverse]


def clip_numeric(X, kinds, lo, hi):
    """Numeric columns clipped to their public domains [lo, hi] (categorical codes left alone).
    Post-processing of the test input: the model and its privacy guarantee are unchanged."""
    out = np.array(X, dtype=np.float64, copy=True)
    for f, kind in enumerate(kinds):
        if kind == "numeric":
            np.clip(out[:, f], lo[f], hi[f], out=out[:, f])
    return out
