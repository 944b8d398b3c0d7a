#!/usr/bin/env python3
"""Extract the DeepSpeed configs that DeepSpeed's own unit tests use, with the outcome each test expects.

Usage:
    python3 scripts/deepspeed-oracle/extract.py <DeepSpeed checkout or git dir> [--commit REV] > cases.json

The tests are never imported or run: each file under tests/unit is parsed with `ast` and every test is walked
by a small symbolic interpreter (see README.md) that follows the test body with its parametrize values, fixtures,
helper functions and dict mutations, and records each config that reaches a DeepSpeed entry point
(deepspeed.initialize, DeepSpeedConfig, deepspeed.zero.Init, args_from_dict, the section models such as
DeepSpeedFP16Config / DeepSpeedZeroConfig, compute_elastic_config, parse_autoep_config / validate_autoep_config).
Standard library only. Output is sorted and deterministic.
"""

import argparse
import ast
import copy
import itertools
import json
import math
import os
import subprocess
import sys

# --------------------------------------------------------------------------------------------------------------------
# Source access: a plain checkout, or a (bare) git directory read with `git show REV:path`.
# --------------------------------------------------------------------------------------------------------------------


class Source:

    def __init__(self, root, commit=None):
        self.root = os.path.abspath(root)
        self.cache = {}
        plain = os.path.isdir(os.path.join(self.root, 'tests', 'unit'))
        self.git = commit is not None or not plain
        self.commit = None
        if self.git:
            rev = commit or 'HEAD'
            self.commit = self._git('rev-parse', '--verify', rev + '^{commit}').strip()
            listing = self._git('ls-tree', '-r', '--name-only', self.commit, '--', 'tests', 'deepspeed', 'version.txt')
            self.files = sorted(line for line in listing.splitlines() if line)
        else:
            try:
                self.commit = subprocess.run(['git', '-C', self.root, 'rev-parse', 'HEAD'],
                                             capture_output=True, text=True, check=True).stdout.strip()
            except (OSError, subprocess.CalledProcessError):
                self.commit = None
            files = []
            for top in ('tests', 'deepspeed'):
                for dirpath, dirnames, filenames in os.walk(os.path.join(self.root, top)):
                    dirnames.sort()
                    for name in filenames:
                        files.append(os.path.relpath(os.path.join(dirpath, name), self.root).replace(os.sep, '/'))
            if os.path.exists(os.path.join(self.root, 'version.txt')):
                files.append('version.txt')
            self.files = sorted(files)
        self.fileset = set(self.files)

    def _git(self, *args):
        return subprocess.run(['git', '--git-dir' if self._is_git_dir() else '-C', self.root, *args],
                              capture_output=True, text=True, check=True).stdout

    def _is_git_dir(self):
        return os.path.exists(os.path.join(self.root, 'HEAD')) and os.path.isdir(os.path.join(self.root, 'objects'))

    def exists(self, rel):
        return rel in self.fileset

    def read(self, rel):
        if rel in self.cache:
            return self.cache[rel]
        text = None
        if rel in self.fileset:
            if self.git:
                text = self._git('show', f'{self.commit}:{rel}')
            else:
                with open(os.path.join(self.root, rel), encoding='utf-8') as f:
                    text = f.read()
        self.cache[rel] = text
        return text


# --------------------------------------------------------------------------------------------------------------------
# Values of the interpreter
# --------------------------------------------------------------------------------------------------------------------


class Opaque:
    """A value the interpreter cannot know (a tensor, a model, an unresolved name...)."""
    __slots__ = ('src', )

    def __init__(self, src):
        self.src = src

    def __repr__(self):
        return f'<{self.src}>'


class UnknownBool:
    pass


UNKNOWN = UnknownBool()

DTYPE_ALIASES = {
    'torch.half': 'torch.float16',
    'torch.float': 'torch.float32',
    'torch.double': 'torch.float64',
    'torch.bfloat16': 'torch.bfloat16',
}


class Dotted:
    """A name from an imported module we do not interpret (torch.float16, deepspeed.initialize...)."""
    __slots__ = ('name', )

    def __init__(self, name):
        self.name = DTYPE_ALIASES.get(name, name)

    def __eq__(self, other):
        return isinstance(other, Dotted) and other.name == self.name

    def __hash__(self):
        return hash(('Dotted', self.name))

    def __repr__(self):
        return self.name

    @property
    def last(self):
        return self.name.rsplit('.', 1)[-1]


class FuncVal:

    def __init__(self, node, module, closure=None, bound=None, owner=None):
        self.node, self.module, self.closure, self.bound, self.owner = node, module, closure, bound, owner


class ClassVal:

    def __init__(self, node, module):
        self.node, self.module, self.name = node, module, node.name

    def __eq__(self, other):
        return isinstance(other, ClassVal) and other.node is self.node

    def __hash__(self):
        return id(self.node)


class Instance:

    def __init__(self, cls, attrs=None):
        self.cls, self.attrs = cls, attrs if attrs is not None else {}


class RaisesCtx:

    def __init__(self, exc):
        self.exc = exc


class MockCtx:

    def __init__(self, what):
        self.what = what


class ConfigRef:
    """What args_from_dict / create_config_from_dict / json.dump to a file return: a way to a config dict."""

    def __init__(self, kind, cfg):
        self.kind, self.cfg = kind, cfg


class SubCfg:
    """A DeepSpeed section model built in the test (DeepSpeedFP16Config(**kw) ...): the section's dict."""

    def __init__(self, cls, section, fields, line):
        self.cls, self.section, self.fields, self.line = cls, section, fields, line


class PytestParam:

    def __init__(self, values, marks):
        self.values, self.marks = values, marks


class JsonText:

    def __init__(self, value):
        self.value = value


class FileHandle:

    def __init__(self, key):
        self.key = key


class RawText:
    """Text a test writes to a config file itself (not through json.dump)."""

    def __init__(self, text):
        self.text = text


class DSEnum:
    """An enum class of DeepSpeed with a str or int mixin: its members compare equal to their values."""

    def __init__(self, name, members):
        self.name, self.members = name, members


def file_key(v):
    return ('path', str(v)) if isinstance(v, str) else ('id', id(v))


class Sentinel:
    """object(): compared by identity only."""


class TmpPath(str):
    """A pytest tmpdir / tmp_path: a path string that also answers .join(), .mkdir(), / and .strpath."""

    def join(self, *parts):  # py.path.local.join, not str.join
        return TmpPath('/'.join([str(self)] + [str(p) for p in parts]))

    def mkdir(self, *parts):
        return self.join(*parts) if parts else self

    def __truediv__(self, other):
        return self.join(other)

    @property
    def strpath(self):
        return str(self)


TMP_ROOT = '/tmp/deepspeed-oracle-tmpdir'


class RepoPath(str):
    """get_test_path(name): a file of the DeepSpeed checkout (tests/unit/<name>)."""

    def __new__(cls, rel):
        obj = str.__new__(cls, rel)
        obj.rel = rel
        return obj


class Skip(Exception):
    pass


class StopPath(Exception):
    pass


class ReturnSig(Exception):

    def __init__(self, value):
        self.value = value


class BreakSig(Exception):
    pass


class ContinueSig(Exception):
    pass


# --------------------------------------------------------------------------------------------------------------------
# Knowledge about DeepSpeed and its test harness
# --------------------------------------------------------------------------------------------------------------------

# Top-level keys of a ds_config (to find config dict literals that no entry point reached).
DS_TOP_KEYS = {
    'train_batch_size', 'train_micro_batch_size_per_gpu', 'gradient_accumulation_steps', 'steps_per_print',
    'optimizer', 'scheduler', 'fp16', 'bf16', 'bfloat16', 'amp', 'zero_optimization', 'gradient_clipping',
    'prescale_gradients', 'gradient_predivide_factor', 'sparse_gradients', 'wall_clock_breakdown', 'memory_breakdown',
    'flops_profiler', 'activation_checkpointing', 'aio', 'tensorboard', 'wandb', 'csv_monitor', 'comet', 'elasticity',
    'pipeline', 'curriculum_learning', 'data_efficiency', 'compression_training', 'checkpoint', 'data_types',
    'communication_data_type', 'zero_allow_untested_optimizer', 'zero_force_ds_cpu_optimizer', 'tensor_parallel',
    'compile', 'torch_autocast', 'hybrid_engine', 'expert_parallel', 'sequence_parallel_size', 'gradient_allreduce_op',
    'dataloader_drop_last', 'progressive_layer_drop', 'eigenvalue', 'quantize_training', 'sparse_attention',
    'autotuning', 'nebula', 'weight_quantization', 'timers', 'zenflow', 'dump_state', 'graph_harvesting',
    'load_universal_checkpoint', 'use_node_local_storage', 'mics_shard_size', 'disable_allgather'
}

# Section models the tests build on their own: (section path inside a ds_config, recorded when built).
SECTION_MODELS = {
    'DeepSpeedFP16Config': (['fp16'], True),
    'DeepSpeedBF16Config': (['bf16'], True),
    'DeepSpeedZeroConfig': (['zero_optimization'], True),
    'DeepSpeedZeroOffloadOptimizerConfig': (['zero_optimization', 'offload_optimizer'], True),
    'DeepSpeedZeroOffloadParamConfig': (['zero_optimization', 'offload_param'], True),
    'AutoEPConfig': (['expert_parallel'], False),
}

BATCH_FILLER = 'train_micro_batch_size_per_gpu'

# Entry points that run only a part of DeepSpeed's checks: their ACCEPT says nothing about a whole config.
PARTIAL_ENTRIES = {'compute_elastic_config', 'validate_autoep_config', 'parse_autoep_config', 'get_bfloat16_config'}

# What the assumed machine answers (a CUDA GPU with fp16 and bf16, every op built, a recent torch).
ACCEL_ANSWERS = {
    'is_fp16_supported': True,
    'is_bf16_supported': True,
    'is_available': True,
    'device_name': 'cuda',
    'communication_backend_name': 'nccl',
    'device_count': 8,
    'current_device_name': 'cuda:0',
    'is_triton_supported': True,
    'is_synchronized_device': False,
    'resolves_data_dependency': False,
    'handles_memory_backpressure': False,
    'use_host_timers': False,
    'is_pinned': True,
}
TRUE_PREDICATES = {
    'required_torch_version', 'bf16_required_version_check', 'required_amp_check', 'is_torch_version_ge',
    'is_cuda_available', 'required_minimum_torch_version'
}
FALSE_PREDICATES = {'is_rocm_pytorch', 'is_hpu', 'required_maximum_torch_version'}

ASSUMPTIONS = [
    'accelerator: CUDA, is_fp16_supported() and is_bf16_supported() true, device_name() "cuda"',
    'every op builder compatible (deepspeed.ops.__compatible_ops__[...] true), torch new enough '
    '(required_torch_version(...) and bf16_required_version_check() true), apex available for amp',
    'dist.get_rank() is 0; dist.get_world_size() is the test\'s world size',
    'a test outside DistributedTest runs with world size 1 (DeepSpeedConfig falls back to 1 without torch.distributed)',
]



def _optimizer_implementation(params, config):
    """TestOptimizerImplementation: which check of engine._do_optimizer_sanity_check raises."""
    amp = params.get('optimizer_extension') == 'amp'
    model, grad = params.get('model_dtype'), params.get('grad_accum_dtype')
    if amp:
        if grad is not None and grad != model:
            return True, 'amp with a gradient accumulation dtype other than the model dtype', 'deepspeed/runtime/engine.py:2000'
        return True, 'amp together with fp16 or bf16', 'deepspeed/runtime/engine.py:2003'
    return True, 'unsupported mix of model dtype and data_types.grad_accum_dtype', 'deepspeed/runtime/engine.py:2021'


# Reviewed raises that the generic rules cannot judge (a raise inside deepspeed.initialize may come from the config,
# the model, the optimizer passed in code, the arguments or the process group). Key: (file, test qualname) ->
# (configDecided, reason, DeepSpeed source line that raises) or a function of (params, config) returning that.
# Checked by hand against DeepSpeed edaa7221; re-check when moving to another commit.
REVIEWED = {
    ('tests/unit/checkpoint/test_tag_validation.py', 'TestCheckpointValidationTag::test_checkpoint_unknown_tag_validation'):
    (True, 'checkpoint.tag_validation "foo" is not one of Ignore/Warn/Fail', 'deepspeed/runtime/config.py:648'),
    ('tests/unit/compile/test_tp_compile.py', 'TestAutoTPCompileRejectsUnsupportedCombinations::test_autotp_with_zero_pass_raises'):
    {'expected': 'REJECT', 'exception': 'NotImplementedError', 'decided': True,
     'reason': 'deepspeed.initialize accepts it, then engine.compile() refuses the "autotp" pass with a ZeRO pass ("z1")',
     'source': 'deepspeed/runtime/engine.py:5694'},
    ('tests/unit/comm/test_dist.py', 'TestDistInitWithModel::test_no_init'):
    (False, 'dist_init_required=False without a process group: the error is the missing torch.distributed init', None),
    ('tests/unit/elasticity/test_elastic.py', 'TestElasticConfigChanged::test'):
    (False, 'the DEEPSPEED_ELASTICITY_CONFIG environment variable (the scheduler\'s copy) differs from the config',
     'deepspeed/elasticity/elasticity.py ensure_immutable_elastic_config'),
    ('tests/unit/elasticity/test_elastic.py', 'TestNonElasticBatchParams::test'):
    (True, 'train_batch_size with elasticity enabled and no ignore_non_elastic_batch_info',
     'deepspeed/runtime/config.py:764'),
    ('tests/unit/model_parallelism/test_autotp_training.py',
     'TestTpModelInitCompatibility::test_tp_model_init_config_autotp_size_mismatch'):
    (False, 'deepspeed.tp_model_init(tp_size=1) ran before: the config\'s autotp_size conflicts with that call', None),
    ('tests/unit/model_parallelism/test_autotp_training.py', 'TestTpModelInitCompatibility::test_tp_model_init_dtype_mismatch'):
    (False, 'deepspeed.tp_model_init(dtype=float16) ran before: the config\'s bf16 conflicts with that call', None),
    ('tests/unit/model_parallelism/test_autotp_training.py',
     'TestTpModelInitCompatibility::test_tp_model_init_tp_group_rejects_mpu'):
    (False, 'tp_model_init was given a tp_group and initialize an mpu', None),
    ('tests/unit/elasticity/test_elastic.py', 'test_invalid_world_size'):
    (True, 'world size 128 is not one of the GPU counts the elasticity config allows',
     'deepspeed/elasticity/elasticity.py:354'),
    ('tests/unit/runtime/test_precision_config_dynamic_scale.py', 'test_fp16_dynamic_scale_rejects_bool'):
    (True, 'fp16.loss_scale_window / min_loss_scale is a bool', 'deepspeed/runtime/precision_config.py:173'),
    ('tests/unit/runtime/test_precision_config_dynamic_scale.py', 'test_fp16_dynamic_scale_rejects_non_integer'):
    (True, 'fp16.loss_scale_window / min_loss_scale is inf, nan, a string or null',
     'deepspeed/runtime/precision_config.py:165-179'),
    ('tests/unit/runtime/test_precision_config_dynamic_scale.py', 'test_fp16_dynamic_scale_rejects_nonpositive_when_dynamic'):
    (True, 'fp16.loss_scale_window / min_loss_scale <= 0 with dynamic loss scaling',
     'deepspeed/runtime/precision_config.py:183-196'),
    ('tests/unit/runtime/test_precision_config_loss_scale.py', 'test_fp16_loss_scale_rejects_invalid_values'):
    (True, 'fp16.loss_scale is negative, inf, nan or a bool', 'deepspeed/runtime/precision_config.py:120-132'),
    ('tests/unit/runtime/test_precision_config_loss_scale.py', 'test_fp16_loss_scale_invalid_type_has_clear_error'):
    (True, 'fp16.loss_scale is a list or an object', 'deepspeed/runtime/precision_config.py:128'),
    ('tests/unit/ops/muon/test_muon.py', 'TestMuonRejectsReduceScatter::test_muon_reduce_scatter_with_optimizer_offload_raises'):
    (True, 'optimizer muon with ZeRO reduce_scatter and offload_optimizer', 'deepspeed/runtime/zero/stage_1_and_2.py:231'),
    ('tests/unit/runtime/half_precision/test_fp16.py', 'TestZeroAllowUntestedOptimizer::test'):
    (False, 'the untested optimizer is the client optimizer passed in code (SimpleOptimizer)', None),
    ('tests/unit/runtime/test_ds_config_dict.py', 'TestNoModel::test'):
    (False, 'initialize is called without a model', None),
    ('tests/unit/runtime/test_ds_initialize.py', 'TestOptimizerImplementation::test'): _optimizer_implementation,
    ('tests/unit/v1/moe/test_autoep_integration.py', 'TestAutoEPOnly::test_zero3_native_moe_rejected_2gpu'):
    (False, 'the model has native DeepSpeed MoE layers', None),
    ('tests/unit/v1/zero/test_zero.py', 'TestIncorectAllgatherBucketSize::test'):
    (True, 'zero_optimization.allgather_bucket_size is odd (must be a multiple of 2)',
     'deepspeed/runtime/zero/stage_1_and_2.py:349'),
    ('tests/unit/v1/zero/test_zero.py', 'TestZeroOffloadOptim::test'):
    (False, 'the client optimizer passed in code (torch.optim.Adam) with offload and zero_force_ds_cpu_optimizer', None),
    ('tests/unit/v1/zero/test_zero_user_backward.py',
     'TestUnmanagedGradientAccumulationOverlapCommValidation::test_unmanaged_rejects_overlap_comm'):
    (True, 'managed_gradient_accumulation false with overlap_comm below ZeRO stage 2', 'deepspeed/runtime/engine.py:1706'),
    ('tests/unit/v1/zero/test_zero_user_backward.py', 'TestUnmanagedGradientAccumulationPipelineValidation::test_unmanaged_rejects_pipeline'):
    (False, 'the model is a PipelineModule', None),
}

# --------------------------------------------------------------------------------------------------------------------
# Modules
# --------------------------------------------------------------------------------------------------------------------


class Module:

    def __init__(self, loader, rel, tree):
        self.loader, self.rel, self.tree = loader, rel, tree
        self.defs, self.assigns, self.imports = {}, {}, {}
        self.cache, self.evaluating = {}, set()
        self.frame = None  # module-level statements, executed once on the first lookup
        self.package = rel.rsplit('/', 1)[0].replace('/', '.') if '/' in rel else ''
        for stmt in tree.body:
            self._scan(stmt)

    def _scan(self, stmt):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.defs[stmt.name] = stmt
        elif isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        self.assigns.setdefault(n.id, []).append(stmt)
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            self.assigns.setdefault(stmt.target.id, []).append(stmt)
        elif isinstance(stmt, ast.Import):
            for a in stmt.names:
                if a.asname:
                    self.imports[a.asname] = (a.name, None)
                else:
                    top = a.name.split('.')[0]
                    self.imports[top] = (top, None)
        elif isinstance(stmt, ast.ImportFrom):
            mod = stmt.module or ''
            if stmt.level:
                base = self.package.split('.') if self.package else []
                base = base[:len(base) - (stmt.level - 1)] if stmt.level > 1 else base
                mod = '.'.join(base + ([mod] if mod else []))
            for a in stmt.names:
                if a.name == '*':
                    self.imports.setdefault('*', []).append(mod)
                else:
                    self.imports[a.asname or a.name] = (mod, a.name)
        elif isinstance(stmt, ast.If):
            for s in stmt.body:
                self._scan(s)
        elif isinstance(stmt, ast.Try):
            for s in stmt.body:
                self._scan(s)

    def lookup(self, name, interp):
        if name in self.cache:
            return self.cache[name]
        if name in self.evaluating:
            return None
        self.evaluating.add(name)
        try:
            value = self._lookup(name, interp)
        finally:
            self.evaluating.discard(name)
        if value is not None:
            self.cache[name] = value
        return value

    def init(self, interp):
        if self.frame is not None:
            return
        self.frame = Frame(self, None)
        ctx = Ctx(interp, None)
        for stmt in self.tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
                continue
            try:
                interp.exec_stmt(stmt, self.frame, ctx)
            except Exception:  # noqa: BLE001 - a module statement we cannot follow leaves its names opaque
                pass

    def _lookup(self, name, interp):
        if name in self.defs:
            node = self.defs[name]
            if isinstance(node, ast.ClassDef):
                return ClassVal(node, self)
            return FuncVal(node, self)
        if name in self.assigns:
            if self.frame is None:
                if self.rel.startswith('deepspeed/'):
                    # DeepSpeed's own modules: only the constant assignment itself, never the module body.
                    frame, ctx = Frame(self, None), Ctx(interp, None)
                    try:
                        interp.exec_stmt(self.assigns[name][-1], frame, ctx)
                    except Exception:  # noqa: BLE001
                        pass
                    if name in frame.vars:
                        return frame.vars[name]
                    return None
                self.init(interp)
            if name in self.frame.vars:
                return self.frame.vars[name]
            return None
        if name in self.imports and name != '*':
            mod, attr = self.imports[name]
            return self.loader.import_value(mod, attr)
        for mod in self.imports.get('*', []):
            m = self.loader.module_for(mod)
            if m is not None and name in m.defs | m.assigns.keys() | {k for k in m.imports if k != '*'}:
                return m.lookup(name, interp)
        return None


class Loader:

    def __init__(self, source):
        self.source = source
        self.modules = {}
        self.interp = None

    def module_file(self, modname):
        parts = modname.split('.')
        candidates = []
        if parts[0] == 'unit':
            base = 'tests/' + '/'.join(parts)
            candidates = [base + '.py', base + '/__init__.py']
        elif parts[0] == 'deepspeed':
            base = '/'.join(parts)
            candidates = [base + '.py', base + '/__init__.py']
        elif parts[0] == 'tests':
            base = '/'.join(parts)
            candidates = [base + '.py', base + '/__init__.py']
        for c in candidates:
            if self.source.exists(c):
                return c
        return None

    def module_for(self, modname):
        rel = self.module_file(modname)
        return self.load(rel) if rel else None

    def load(self, rel):
        if rel in self.modules:
            return self.modules[rel]
        text = self.source.read(rel)
        module = None
        if text is not None:
            try:
                module = Module(self, rel, ast.parse(text))
            except SyntaxError:
                module = None
        self.modules[rel] = module
        return module

    def import_value(self, mod, attr):
        if attr is None:
            return Dotted(mod)
        m = self.module_for(mod)
        if m is not None:
            if mod.startswith('deepspeed'):
                # Only constants of DeepSpeed itself: never interpret its functions or classes.
                if attr in m.defs:
                    node = m.defs[attr]
                    if isinstance(node, ast.ClassDef):
                        bases = {safe_unparse(b).rsplit('.', 1)[-1] for b in node.bases}
                        if 'Enum' in bases and bases & {'str', 'int'}:
                            members = {}
                            for st in node.body:
                                if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(
                                        st.targets[0], ast.Name) and isinstance(st.value, ast.Constant):
                                    members[st.targets[0].id] = st.value.value
                            return DSEnum(f'{mod}.{attr}', members)
                    return Dotted(f'{mod}.{attr}')
                v = m.lookup(attr, self.interp)
                if v is not None and is_plain(v):
                    return v
                return Dotted(f'{mod}.{attr}')
            v = m.lookup(attr, self.interp)
            if v is not None:
                return v
        sub = self.module_file(f'{mod}.{attr}')
        if sub:
            return Dotted(f'{mod}.{attr}')
        return Dotted(f'{mod}.{attr}')


def is_plain(v):
    if isinstance(v, (str, int, float, bool, type(None))):
        return True
    if isinstance(v, (list, tuple)):
        return all(is_plain(x) for x in v)
    if isinstance(v, dict):
        return all(is_plain(k) and is_plain(x) for k, x in v.items())
    return False


# --------------------------------------------------------------------------------------------------------------------
# Interpreter
# --------------------------------------------------------------------------------------------------------------------


class Frame:

    def __init__(self, module, parent, vars=None):
        self.module, self.parent = module, parent
        self.vars = vars if vars is not None else {}

    def lookup(self, name, interp):
        f = self
        while f is not None:
            if name in f.vars:
                return f.vars[name]
            f = f.parent
        v = self.module.lookup(name, interp)
        if v is not None:
            return v
        if name in BUILTINS:
            return BUILTINS[name]
        return Opaque(name)


class Builtin:

    def __init__(self, name, fn):
        self.name, self.fn = name, fn


BUILTINS = {
    name: Builtin(name, fn)
    for name, fn in {
        'float': float, 'int': int, 'str': str, 'bool': bool, 'len': len, 'range': range, 'list': list,
        'tuple': tuple, 'dict': dict, 'set': set, 'min': min, 'max': max, 'sum': sum, 'abs': abs, 'sorted': sorted,
        'enumerate': enumerate, 'zip': zip, 'round': round, 'any': any, 'all': all, 'isinstance': None,
        'hasattr': None, 'getattr': None, 'print': None, 'repr': repr, 'reversed': reversed
    }.items()
}
BUILTINS['object'] = Builtin('object', None)
BUILTINS['open'] = Builtin('open', None)
BUILTINS['True'] = True
BUILTINS['False'] = False
BUILTINS['None'] = None


def contains_opaque(v, seen=None):
    seen = seen or set()
    if isinstance(v, (Opaque, UnknownBool)):
        return True
    if isinstance(v, (dict, list, tuple, set)):
        if id(v) in seen:
            return False
        seen.add(id(v))
        items = list(v.items()) if isinstance(v, dict) else [(x, None) for x in v]
        return any(contains_opaque(a, seen) or contains_opaque(b, seen) for a, b in items)
    return False


class TestInfo:

    def __init__(self, rel, qualname, params, world_size, distributed, skipped=None):
        self.rel, self.qualname, self.params, self.world_size, self.distributed = (rel, qualname, params, world_size,
                                                                                   distributed)
        self.skipped = skipped


class Ctx:
    """The state of one walk through one test (one parametrisation, one world size)."""

    def __init__(self, interp, test):
        self.interp, self.test = interp, test
        self.raises = []
        self.mocks = []
        self.tainted = {}
        self.depth = 0
        self.files = {}
        self.loose = []  # (config dict, call description) handed to code we do not follow
        self.fixtures = {}


class Interp:

    def __init__(self, loader, log):
        self.loader = loader
        loader.interp = self
        self.log = log
        self.origins = {}  # id(dict) -> (file, line)
        self.keep = []
        self.cases = []
        self.seen_origins = set()

    # ---------------------------------------------------------------- statements

    def exec_body(self, body, frame, ctx):
        for stmt in body:
            self.exec_stmt(stmt, frame, ctx)

    def exec_stmt(self, s, frame, ctx):
        if isinstance(s, ast.Expr):
            self.eval(s.value, frame, ctx)
        elif isinstance(s, ast.Assign):
            value = self.eval(s.value, frame, ctx)
            for t in s.targets:
                self.assign(t, value, frame, ctx)
        elif isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self.assign(s.target, self.eval(s.value, frame, ctx), frame, ctx)
        elif isinstance(s, ast.AugAssign):
            cur = self.eval(s.target, frame, ctx)
            val = self.eval(s.value, frame, ctx)
            self.assign(s.target, self.binop(s.op, cur, val), frame, ctx)
        elif isinstance(s, ast.Delete):
            for t in s.targets:
                if isinstance(t, ast.Subscript):
                    obj = self.eval(t.value, frame, ctx)
                    key = self.eval(t.slice, frame, ctx)
                    if isinstance(obj, dict) and not isinstance(key, Opaque):
                        obj.pop(key, None)
                    elif isinstance(obj, list) and isinstance(key, int) and -len(obj) <= key < len(obj):
                        del obj[key]
                elif isinstance(t, ast.Name):
                    frame.vars.pop(t.id, None)
        elif isinstance(s, ast.If):
            self.exec_if(s, frame, ctx)
        elif isinstance(s, (ast.For, ast.AsyncFor)):
            self.exec_for(s, frame, ctx)
        elif isinstance(s, ast.While):
            cond = self.truth(self.eval(s.test, frame, ctx))
            if cond is not False:
                try:
                    self.exec_body(s.body, frame, ctx)
                except BreakSig:
                    pass
                except ContinueSig:
                    pass
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            self.exec_with(s, frame, ctx)
        elif isinstance(s, ast.Try) or type(s).__name__ == 'TryStar':
            try:
                self.exec_body(s.body, frame, ctx)
                self.exec_body(s.orelse, frame, ctx)
            finally:
                self.exec_body(s.finalbody, frame, ctx)
        elif isinstance(s, ast.Return):
            raise ReturnSig(self.eval(s.value, frame, ctx) if s.value is not None else None)
        elif isinstance(s, ast.Raise):
            raise StopPath()
        elif isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
            frame.vars[s.name] = FuncVal(s, frame.module, closure=frame)
        elif isinstance(s, ast.ClassDef):
            frame.vars[s.name] = ClassVal(s, frame.module)
        elif isinstance(s, ast.Import):
            for a in s.names:
                if a.asname:
                    frame.vars[a.asname] = Dotted(a.name)
                else:
                    frame.vars[a.name.split('.')[0]] = Dotted(a.name.split('.')[0])
        elif isinstance(s, ast.ImportFrom):
            for a in s.names:
                if a.name != '*':
                    frame.vars[a.asname or a.name] = self.loader.import_value(s.module or '', a.name)
        elif isinstance(s, ast.Break):
            raise BreakSig()
        elif isinstance(s, ast.Continue):
            raise ContinueSig()
        elif isinstance(s, ast.Match):
            pass
        # Assert, Pass, Global, Nonlocal: nothing to do

    def assign(self, target, value, frame, ctx):
        if isinstance(target, ast.Name):
            frame.vars[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, (tuple, list)) and len(value) == len(target.elts) and not any(
                    isinstance(e, ast.Starred) for e in target.elts):
                for t, v in zip(target.elts, value):
                    self.assign(t, v, frame, ctx)
            else:
                for t in target.elts:
                    self.assign(t.value if isinstance(t, ast.Starred) else t, Opaque(ast.unparse(t)), frame, ctx)
        elif isinstance(target, ast.Subscript):
            obj = self.eval(target.value, frame, ctx)
            key = self.eval(target.slice, frame, ctx)
            if isinstance(obj, dict):
                if isinstance(key, (Opaque, UnknownBool)):
                    self.taint(obj, ctx, f'a key set from an unresolved value (line {target.lineno})')
                else:
                    try:
                        obj[key] = value
                    except TypeError:
                        self.taint(obj, ctx, f'an unhashable key (line {target.lineno})')
            elif isinstance(obj, list) and isinstance(key, int) and -len(obj) <= key < len(obj):
                obj[key] = value
        elif isinstance(target, ast.Attribute):
            obj = self.eval(target.value, frame, ctx)
            if isinstance(obj, Instance):
                obj.attrs[target.attr] = value
            elif isinstance(obj, SubCfg):
                obj.fields[target.attr] = value
        elif isinstance(target, ast.Starred):
            self.assign(target.value, value, frame, ctx)

    def taint(self, obj, ctx, reason):
        ctx.tainted.setdefault(id(obj), reason)
        self.keep.append(obj)

    def exec_if(self, s, frame, ctx):
        cond = self.truth(self.eval(s.test, frame, ctx))
        if cond is True:
            self.exec_body(s.body, frame, ctx)
        elif cond is False:
            self.exec_body(s.orelse, frame, ctx)
        else:
            body_ends, else_ends = terminates(s.body), terminates(s.orelse) if s.orelse else False
            if body_ends and not else_ends:
                self.exec_body(s.orelse, frame, ctx)
                return
            if else_ends and not body_ends:
                self.exec_body(s.body, frame, ctx)
                return
            reason = f'changed under a condition the extractor cannot decide (line {s.lineno}: {ast.unparse(s.test)})'
            for branch in (s.body, s.orelse):
                for node in branch:
                    for n in ast.walk(node):
                        target = None
                        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                            for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                                base = t
                                while isinstance(base, (ast.Subscript, ast.Attribute)):
                                    base = base.value
                                if isinstance(base, ast.Name):
                                    if base is t:
                                        frame.vars[base.id] = Opaque(f'{base.id} (conditional, line {s.lineno})')
                                    else:
                                        target = base.id
                                if target:
                                    obj = frame.lookup(target, self)
                                    if isinstance(obj, (dict, list, SubCfg)):
                                        self.taint(obj.fields if isinstance(obj, SubCfg) else obj, ctx, reason)
                        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in (
                                'update', 'pop', 'setdefault', 'append') and isinstance(n.func.value, ast.Name):
                            obj = frame.lookup(n.func.value.id, self)
                            if isinstance(obj, (dict, list)):
                                self.taint(obj, ctx, reason)
            if any(is_entry_call(n) for b in (s.body, s.orelse) for node in b for n in ast.walk(node)):
                self.log(f'undecided condition hides a DeepSpeed call: {frame.module.rel}:{s.lineno} '
                         f'{ast.unparse(s.test)}')

    def exec_for(self, s, frame, ctx):
        it = self.eval(s.iter, frame, ctx)
        items = None
        if isinstance(it, (list, tuple, set, range, str)):
            items = list(it)
        elif isinstance(it, dict):
            items = list(it.keys())
        elif isinstance(it, (zip, enumerate, reversed)):
            items = list(it)
        if items is None or contains_opaque(items) and not items:
            items = [Opaque(ast.unparse(s.target))]
        for item in items[:64]:
            self.assign(s.target, item, frame, ctx)
            try:
                self.exec_body(s.body, frame, ctx)
            except BreakSig:
                break
            except ContinueSig:
                continue
        else:
            self.exec_body(s.orelse, frame, ctx)

    def exec_with(self, s, frame, ctx):
        pushed_r = pushed_m = 0
        for item in s.items:
            v = self.eval(item.context_expr, frame, ctx)
            if isinstance(v, RaisesCtx):
                ctx.raises.append(v.exc)
                pushed_r += 1
            elif isinstance(v, MockCtx):
                ctx.mocks.append(v.what)
                pushed_m += 1
            if item.optional_vars is not None:
                bound = v if isinstance(v, (FileHandle, TmpPath)) else Opaque(ast.unparse(item.optional_vars))
                self.assign(item.optional_vars, bound, frame, ctx)
        try:
            self.exec_body(s.body, frame, ctx)
        except StopPath:
            if not pushed_r:
                raise
        finally:
            for _ in range(pushed_r):
                ctx.raises.pop()
            for _ in range(pushed_m):
                ctx.mocks.pop()

    # ---------------------------------------------------------------- expressions

    def truth(self, v):
        if isinstance(v, (Opaque, UnknownBool)):
            return None
        if isinstance(v, (Dotted, FuncVal, ClassVal, Instance, Builtin)):
            return True
        if isinstance(v, (dict, list, tuple)) and contains_opaque(v) and len(v) == 0:
            return None
        try:
            return bool(v)
        except Exception:  # noqa: BLE001
            return None

    def eval(self, n, frame, ctx):
        try:
            return self._eval(n, frame, ctx)
        except (Skip, StopPath, ReturnSig, BreakSig, ContinueSig):
            raise
        except RecursionError:
            return Opaque(safe_unparse(n))
        except Exception:  # noqa: BLE001 - anything we cannot evaluate is opaque
            return Opaque(safe_unparse(n))

    def _eval(self, n, frame, ctx):
        if isinstance(n, ast.Constant):
            return n.value
        if isinstance(n, ast.Dict):
            d = {}
            for k, v in zip(n.keys, n.values):
                if k is None:
                    sub = self.eval(v, frame, ctx)
                    if isinstance(sub, dict):
                        d.update(sub)
                    elif isinstance(sub, SubCfg):
                        d.update(sub.fields)
                    else:
                        d[Opaque('**' + safe_unparse(v))] = Opaque('**' + safe_unparse(v))
                else:
                    key = self.eval(k, frame, ctx)
                    try:
                        d[key] = self.eval(v, frame, ctx)
                    except TypeError:
                        d[Opaque(safe_unparse(k))] = self.eval(v, frame, ctx)
            self.origins[id(d)] = (frame.module.rel, n.lineno)
            self.keep.append(d)
            return d
        if isinstance(n, ast.List):
            return self.eval_seq(n.elts, frame, ctx)
        if isinstance(n, ast.Tuple):
            return tuple(self.eval_seq(n.elts, frame, ctx))
        if isinstance(n, ast.Set):
            vals = self.eval_seq(n.elts, frame, ctx)
            try:
                return set(vals)
            except TypeError:
                return Opaque(safe_unparse(n))
        if isinstance(n, ast.Name):
            return frame.lookup(n.id, self)
        if isinstance(n, ast.Attribute):
            return self.getattr(self.eval(n.value, frame, ctx), n.attr, n)
        if isinstance(n, ast.Subscript):
            obj = self.eval(n.value, frame, ctx)
            key = self.eval(n.slice, frame, ctx)
            if isinstance(obj, Dotted):
                if obj.name.endswith('__compatible_ops__'):
                    return True
                if obj.name in ('os.environ', ):
                    return Opaque(safe_unparse(n))
                return Dotted(f'{obj.name}[{safe_unparse(n.slice)}]')
            if isinstance(obj, (dict, list, tuple, str)) and not isinstance(key, (Opaque, UnknownBool)):
                if isinstance(obj, dict) and key not in obj:
                    return Opaque(safe_unparse(n))
                return obj[key]
            return Opaque(safe_unparse(n))
        if isinstance(n, ast.Slice):
            lo = self.eval(n.lower, frame, ctx) if n.lower else None
            hi = self.eval(n.upper, frame, ctx) if n.upper else None
            st = self.eval(n.step, frame, ctx) if n.step else None
            return slice(lo, hi, st)
        if isinstance(n, ast.UnaryOp):
            v = self.eval(n.operand, frame, ctx)
            if isinstance(n.op, ast.Not):
                t = self.truth(v)
                return UNKNOWN if t is None else (not t)
            if isinstance(v, (Opaque, UnknownBool)):
                return Opaque(safe_unparse(n))
            if isinstance(n.op, ast.USub):
                return -v
            if isinstance(n.op, ast.UAdd):
                return +v
            if isinstance(n.op, ast.Invert):
                return ~v
        if isinstance(n, ast.BinOp):
            return self.binop(n.op, self.eval(n.left, frame, ctx), self.eval(n.right, frame, ctx))
        if isinstance(n, ast.BoolOp):
            result = None
            unknown = False
            for i, v_node in enumerate(n.values):
                v = self.eval(v_node, frame, ctx)
                t = self.truth(v)
                if isinstance(n.op, ast.And):
                    if t is False:
                        return v
                    if t is None:
                        unknown = True
                else:
                    if t is True:
                        return v if not unknown else UNKNOWN
                    if t is None:
                        unknown = True
                result = v
            return UNKNOWN if unknown else result
        if isinstance(n, ast.Compare):
            left = self.eval(n.left, frame, ctx)
            for op, right_node in zip(n.ops, n.comparators):
                right = self.eval(right_node, frame, ctx)
                r = compare(op, left, right)
                if r is UNKNOWN or r is False:
                    return r
                left = right
            return True
        if isinstance(n, ast.IfExp):
            t = self.truth(self.eval(n.test, frame, ctx))
            if t is None:
                return Opaque(safe_unparse(n))
            return self.eval(n.body if t else n.orelse, frame, ctx)
        if isinstance(n, ast.Call):
            return self.call(n, frame, ctx)
        if isinstance(n, ast.JoinedStr):
            parts = []
            for v in n.values:
                if isinstance(v, ast.Constant):
                    parts.append(str(v.value))
                else:
                    x = self.eval(v.value, frame, ctx)
                    if isinstance(x, (Opaque, UnknownBool)) or not is_plain(x):
                        return Opaque(safe_unparse(n))
                    parts.append(format(x, self.eval(v.format_spec, frame, ctx) if v.format_spec else ''))
            return ''.join(parts)
        if isinstance(n, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            return self.eval_comp(n, frame, ctx)
        if isinstance(n, ast.Lambda):
            return Opaque('lambda')
        if isinstance(n, ast.Starred):
            return self.eval(n.value, frame, ctx)
        if isinstance(n, ast.NamedExpr):
            v = self.eval(n.value, frame, ctx)
            self.assign(n.target, v, frame, ctx)
            return v
        return Opaque(safe_unparse(n))

    def eval_seq(self, elts, frame, ctx):
        out = []
        for e in elts:
            if isinstance(e, ast.Starred):
                v = self.eval(e.value, frame, ctx)
                if isinstance(v, (list, tuple)):
                    out.extend(v)
                else:
                    out.append(Opaque(safe_unparse(e)))
            else:
                out.append(self.eval(e, frame, ctx))
        return out

    def eval_comp(self, n, frame, ctx):
        results = []
        sub = Frame(frame.module, frame)

        def rec(i):
            if i == len(n.generators):
                if isinstance(n, ast.DictComp):
                    results.append((self.eval(n.key, sub, ctx), self.eval(n.value, sub, ctx)))
                else:
                    results.append(self.eval(n.elt, sub, ctx))
                return
            g = n.generators[i]
            it = self.eval(g.iter, sub, ctx)
            if isinstance(it, dict):
                it = list(it)
            if not isinstance(it, (list, tuple, range, set, str)):
                raise ValueError('opaque iterable')
            for item in list(it)[:256]:
                self.assign(g.target, item, sub, ctx)
                if all(self.truth(self.eval(c, sub, ctx)) is True for c in g.ifs):
                    rec(i + 1)

        try:
            rec(0)
        except ValueError:
            return Opaque(safe_unparse(n))
        if isinstance(n, ast.DictComp):
            return dict(results)
        if isinstance(n, ast.SetComp):
            return set(results)
        return results

    def binop(self, op, a, b):
        if isinstance(a, (Opaque, UnknownBool)) or isinstance(b, (Opaque, UnknownBool)):
            return Opaque('binop')
        ops = {
            ast.Add: lambda x, y: x + y, ast.Sub: lambda x, y: x - y, ast.Mult: lambda x, y: x * y,
            ast.Div: lambda x, y: x / y, ast.FloorDiv: lambda x, y: x // y, ast.Mod: lambda x, y: x % y,
            ast.Pow: lambda x, y: x**y, ast.BitOr: lambda x, y: x | y, ast.BitAnd: lambda x, y: x & y,
            ast.LShift: lambda x, y: x << y, ast.RShift: lambda x, y: x >> y
        }
        fn = ops.get(type(op))
        if fn is None:
            return Opaque('binop')
        if isinstance(a, dict) and isinstance(b, dict) and isinstance(op, ast.BitOr):
            d = dict(a)
            d.update(b)
            return d
        try:
            return fn(a, b)
        except Exception:  # noqa: BLE001
            return Opaque('binop')

    def getattr(self, obj, attr, node):
        if isinstance(obj, Dotted):
            if obj.name == 'ACCEL':
                return Dotted(f'ACCEL.{attr}')
            if attr in ('__name__', '__qualname__'):
                return obj.last
            if attr == '__module__' and '.' in obj.name:
                return obj.name.rsplit('.', 1)[0]
            return Dotted(f'{obj.name}.{attr}')
        if isinstance(obj, DSEnum):
            if attr in obj.members:
                return obj.members[attr]
            return Dotted(f'{obj.name}.{attr}')
        if isinstance(obj, FileHandle):
            return ('method', obj, attr)
        if isinstance(obj, Instance):
            if attr in obj.attrs:
                return obj.attrs[attr]
            if obj.cls is not None:
                v = self.class_attr(obj.cls, attr)
                if v is not None:
                    if isinstance(v, FuncVal) and not is_static(v.node):
                        return FuncVal(v.node, v.module, v.closure, bound=obj, owner=v.owner)
                    return v
            return Opaque(safe_unparse(node))
        if isinstance(obj, ClassVal):
            if attr in ('__name__', '__qualname__'):
                return obj.name
            if attr == '__module__':
                rel = obj.module.rel[:-3].replace('/', '.')
                return rel[len('tests.'):] if rel.startswith('tests.') else rel
            v = self.class_attr(obj, attr)
            return v if v is not None else Opaque(safe_unparse(node))
        if isinstance(obj, SubCfg):
            if attr in obj.fields:
                return obj.fields[attr]
            return Opaque(safe_unparse(node))
        if isinstance(obj, (dict, list, str, tuple, set)):
            return ('method', obj, attr)
        if isinstance(obj, float) and attr in ('is_integer', ):
            return ('method', obj, attr)
        return Opaque(safe_unparse(node))

    def class_attr(self, cls, attr, depth=0):
        if depth > 8:
            return None
        for stmt in cls.node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == attr:
                return FuncVal(stmt, cls.module, owner=cls)
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in stmt.targets):
                return self.eval(stmt.value, Frame(cls.module, None), Ctx(self, None))
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == attr \
                    and stmt.value is not None:
                return self.eval(stmt.value, Frame(cls.module, None), Ctx(self, None))
        for base in cls.node.bases:
            b = self.eval(base, Frame(cls.module, None), Ctx(self, None))
            if isinstance(b, ClassVal):
                v = self.class_attr(b, attr, depth + 1)
                if v is not None:
                    return v
        return None

    # ---------------------------------------------------------------- calls

    def call(self, n, frame, ctx):
        func = self.eval(n.func, frame, ctx)
        args, kwargs = [], {}
        for a in n.args:
            if isinstance(a, ast.Starred):
                v = self.eval(a.value, frame, ctx)
                if isinstance(v, (list, tuple)):
                    args.extend(v)
                else:
                    args.append(Opaque('*' + safe_unparse(a.value)))
            else:
                args.append(self.eval(a, frame, ctx))
        for k in n.keywords:
            v = self.eval(k.value, frame, ctx)
            if k.arg is None:
                if isinstance(v, dict) and all(isinstance(x, str) for x in v):
                    kwargs.update(v)
                elif isinstance(v, SubCfg):
                    kwargs.update(v.fields)
                else:
                    kwargs['**'] = Opaque('**' + safe_unparse(k.value))
            else:
                kwargs[k.arg] = v
        return self.apply(func, args, kwargs, n, frame, ctx)

    def apply(self, func, args, kwargs, n, frame, ctx):
        if isinstance(func, tuple) and len(func) == 3 and func[0] == 'method':
            return self.method(func[1], func[2], args, kwargs, n, ctx)
        if isinstance(func, Builtin):
            return self.builtin(func, args, kwargs, n)
        if isinstance(func, Dotted):
            return self.dotted_call(func, args, kwargs, n, frame, ctx)
        if isinstance(func, FuncVal):
            if func.node.name in TRUE_PREDICATES:
                return True
            if func.node.name in FALSE_PREDICATES:
                return False
            if func.node.name == 'preferred_dtype':
                return Dotted('torch.bfloat16')
            if func.node.name == 'get_test_path' and args and isinstance(args[0], str):
                import posixpath
                return RepoPath(posixpath.normpath('tests/unit/' + args[0]))
            return self.call_function(func, args, kwargs, n, ctx)
        if isinstance(func, ClassVal):
            if func.name in SECTION_MODELS:
                return self.section_model(func.name, args, kwargs, n, frame, ctx)
            inst = Instance(func)
            self.note_loose(args, kwargs, n, ctx)
            return inst
        self.note_loose(args, kwargs, n, ctx)
        return Opaque(safe_unparse(n))

    def note_loose(self, args, kwargs, n, ctx):
        for v in list(args) + list(kwargs.values()):
            if isinstance(v, dict) and id(v) in self.origins and looks_like_config(v):
                ctx.loose.append((v, safe_unparse(n.func)))

    def builtin(self, func, args, kwargs, n):
        if func.fn is None:
            if func.name == 'isinstance':
                return UNKNOWN
            if func.name == 'object' and not args:
                return Sentinel()
            if func.name == 'open' and args:
                self.keep.append(args[0])
                return FileHandle(file_key(args[0]))
            return Opaque(safe_unparse(n))
        if contains_opaque(args) or contains_opaque(list(kwargs.values())):
            return Opaque(safe_unparse(n))
        if func.name == 'dict':
            d = dict(*args, **kwargs)
            if args and isinstance(args[0], dict) and id(args[0]) in self.origins:
                self.origins[id(d)] = self.origins[id(args[0])]
            self.keep.append(d)
            return d
        try:
            v = func.fn(*args, **kwargs)
        except Exception:  # noqa: BLE001
            return Opaque(safe_unparse(n))
        if isinstance(v, (zip, enumerate, reversed)):
            v = list(v)
        return v

    def method(self, obj, name, args, kwargs, n, ctx):
        if isinstance(obj, FileHandle):
            if name == 'write' and args and isinstance(args[0], str):
                prev = ctx.files.get(obj.key)
                text = (prev.text if isinstance(prev, RawText) else '') + args[0]
                ctx.files[obj.key] = RawText(text)
            return None
        if any(isinstance(a, (Opaque, UnknownBool)) for a in args) or (name not in ('update', 'append', 'extend',
                                                                                     'setdefault', 'insert')
                                                                        and contains_opaque(args)):
            if name in ('update', 'setdefault', 'append', 'extend', 'pop') and isinstance(obj, (dict, list)):
                self.taint(obj, ctx, f'changed by .{name}() with an unresolved value (line {n.lineno})')
            return Opaque(safe_unparse(n))
        if isinstance(obj, dict):
            if name == 'copy':
                d = dict(obj)
                if id(obj) in self.origins:
                    self.origins[id(d)] = self.origins[id(obj)]
                if id(obj) in ctx.tainted:
                    self.taint(d, ctx, ctx.tainted[id(obj)])
                self.keep.append(d)
                return d
            if name == 'get':
                return obj.get(*args) if args and args[0] in obj else (args[1] if len(args) > 1 else None)
            if name == 'update':
                for a in args:
                    if isinstance(a, dict):
                        obj.update(a)
                    elif isinstance(a, SubCfg):
                        obj.update(a.fields)
                obj.update(kwargs)
                return None
            if name == 'pop':
                return obj.pop(*args) if args and (args[0] in obj or len(args) > 1) else None
            if name == 'setdefault':
                return obj.setdefault(*args)
            if name in ('keys', 'values', 'items'):
                return list(getattr(obj, name)())
        if isinstance(obj, list):
            if name in ('append', 'extend', 'insert', 'remove', 'index', 'count', 'copy', 'pop'):
                try:
                    return getattr(obj, name)(*args)
                except Exception:  # noqa: BLE001
                    return Opaque(safe_unparse(n))
        if isinstance(obj, (str, tuple, set, float)):
            try:
                v = getattr(obj, name)(*args, **kwargs)
                return v
            except Exception:  # noqa: BLE001
                return Opaque(safe_unparse(n))
        return Opaque(safe_unparse(n))

    def call_function(self, func, args, kwargs, n, ctx):
        if ctx.depth > 10:
            return Opaque(safe_unparse(n))
        node = func.node
        frame = Frame(func.module, func.closure)
        params = bind_args(node, args, kwargs, func.bound, self, frame, ctx)
        frame.vars.update(params)
        ctx.depth += 1
        try:
            if is_generator(node):
                return self.run_generator(node, frame, ctx)
            self.exec_body(node.body, frame, ctx)
        except ReturnSig as r:
            return r.value
        finally:
            ctx.depth -= 1
        return None

    def run_generator(self, node, frame, ctx):
        # A fixture written as a generator: its value is the first yield.
        for stmt in node.body:
            y = first_yield(stmt)
            if y is not None and stmt is y[0]:
                return self.eval(y[1], frame, ctx) if y[1] is not None else None
            self.exec_stmt(stmt, frame, ctx)
        return None

    def dotted_call(self, func, args, kwargs, n, frame, ctx):
        name, last = func.name, func.last
        if name.startswith('ACCEL.'):
            method = name.split('.', 1)[1]
            if method == 'supported_dtypes':
                return [Dotted('torch.float16'), Dotted('torch.bfloat16'), Dotted('torch.float32')]
            if method in ACCEL_ANSWERS:
                return ACCEL_ANSWERS[method]
            return Opaque(safe_unparse(n))
        if last == 'get_accelerator':
            return Dotted('ACCEL')
        if name == 'object' and not args:
            return Sentinel()
        if name.startswith('math.') and not contains_opaque(args) and hasattr(math, last):
            try:
                return getattr(math, last)(*args)
            except Exception:  # noqa: BLE001
                return Opaque(safe_unparse(n))
        if name in ('os.path.join', 'os.path.abspath', 'os.path.expanduser', 'pathlib.Path', 'Path') and args \
                and all(isinstance(a, str) for a in args):
            import posixpath
            return TmpPath(posixpath.join(*args)) if isinstance(args[0], TmpPath) else posixpath.join(*args)
        if last in TRUE_PREDICATES:
            return True
        if last in FALSE_PREDICATES:
            return False
        if last == 'preferred_dtype':
            return Dotted('torch.bfloat16')
        if last == 'get_test_path' and args and isinstance(args[0], str):
            import posixpath
            return RepoPath(posixpath.normpath('tests/unit/' + args[0]))
        if last == 'get_world_size' and ctx.test is not None:
            return ctx.test.world_size if ctx.test.world_size is not None else 1
        if last == 'get_rank' or last == 'get_local_rank':
            return 0
        if last == 'is_initialized':
            return bool(ctx.test and ctx.test.distributed)
        if name in ('pytest.raises', 'raises'):
            exc = exception_name(n.args[0]) if n.args else 'Exception'
            if len(args) > 1:
                ctx.raises.append(exc)
                try:
                    self.apply(args[1], list(args[2:]), {k: v for k, v in kwargs.items() if k != 'match'}, n, frame,
                               ctx)
                except StopPath:
                    pass
                finally:
                    ctx.raises.pop()
                return Opaque('raises')
            return RaisesCtx(exc)
        if name in ('pytest.skip', 'pytest.xfail', 'pytest.exit', 'pytest.fail'):
            raise Skip()
        if name in ('pytest.param', ):
            marks = kwargs.get('marks')
            return PytestParam(tuple(args), marks)
        if name in ('pytest.approx', ):
            return args[0] if args else Opaque('approx')
        if last in ('deepcopy', ) and args:
            return self.copy_value(args[0], True, ctx)
        if name in ('copy.copy', ) and args:
            return self.copy_value(args[0], False, ctx)
        if name in ('json.dumps', ) and args:
            return JsonText(self.copy_value(args[0], True, ctx))
        if name in ('json.loads', ) and args and isinstance(args[0], JsonText):
            return self.copy_value(args[0].value, True, ctx)
        if name in ('json.dump', 'hjson.dump') and len(args) >= 2 and isinstance(args[1], FileHandle):
            ctx.files[args[1].key] = args[0]
            return None
        if name in ('math.inf', ):
            return math.inf
        if name.endswith('monkeypatch.setattr') or name.endswith('monkeypatch.setitem') or last == 'setenv':
            ctx.mocks.append(safe_unparse(n))
            return None
        if name in ('unittest.mock.patch', 'unittest.mock.patch.object', 'mock.patch', 'mock.patch.object',
                    'unittest.mock.patch.dict') or name.endswith('patch.object') or last == 'patch':
            return MockCtx(safe_unparse(n))
        # ---- DeepSpeed entry points
        if last in SECTION_MODELS:
            return self.section_model(last, args, kwargs, n, frame, ctx)
        if last == 'initialize' and 'deepspeed' in name or name == 'initialize':
            cfg = kwargs.get('config', kwargs.get('config_params'))
            a = kwargs.get('args', args[0] if args else None)
            if cfg is None and isinstance(a, ConfigRef):
                cfg = a
            if cfg is None and isinstance(a, Instance) and 'deepspeed_config' in a.attrs:
                cfg = a.attrs['deepspeed_config']
            if cfg is not None:
                self.use('initialize', cfg, n, frame, ctx, extra=initialize_notes(kwargs, args))
            return (Opaque('engine'), Opaque('optimizer'), Opaque('dataloader'), Opaque('lr_scheduler'))
        if last == 'DeepSpeedConfig':
            cfg = args[0] if args else kwargs.get('config')
            if cfg is not None:
                notes = []
                if len(args) > 1 and args[1] is not None or kwargs.get('mpu') is not None:
                    notes.append('an mpu is passed to DeepSpeedConfig')
                self.use('DeepSpeedConfig', cfg, n, frame, ctx, extra=notes)
            return Opaque('DeepSpeedConfig')
        if last == 'Init' and ('zero' in name):
            cfg = kwargs.get('config_dict_or_path', kwargs.get('config'))
            if cfg is not None and kwargs.get('enabled', True) is not False:
                self.use('zero.Init', cfg, n, frame, ctx, extra=[])
            return Opaque('zero.Init')
        if last == 'compute_elastic_config':
            cfg = kwargs.get('ds_config', args[0] if args else None)
            ver = kwargs.get('target_deepspeed_version', args[1] if len(args) > 1 else None)
            ws = kwargs.get('world_size', args[2] if len(args) > 2 else 0)
            if cfg is not None:
                self.use('compute_elastic_config', cfg, n, frame, ctx, extra=[], elastic=(ver, ws))
            return (Opaque('final_batch_size'), Opaque('valid_gpus'), Opaque('mbsize'))
        if last == 'get_bfloat16_config':
            if args:
                self.use('get_bfloat16_config', args[0], n, frame, ctx, extra=[])
            return Opaque('bf16config')
        if last == 'parse_autoep_config':
            if args:
                self.use('parse_autoep_config', args[0], n, frame, ctx, extra=[])
            v = args[0] if args else None
            if isinstance(v, dict):
                return SubCfg('AutoEPConfig', ['expert_parallel'], v, n.lineno)
            return Opaque('autoep')
        if last == 'validate_autoep_config':
            names = ['config', 'world_size', 'pp_size', 'tp_size', 'sp_size']
            got = dict(zip(names, args))
            got.update(kwargs)
            if isinstance(got.get('config'), SubCfg):
                self.use('validate_autoep_config', got['config'], n, frame, ctx, extra=[], autoep=got)
            return None
        if last == 'args_from_dict' and len(args) >= 2:
            return ConfigRef('args_from_dict', args[1])
        if last == 'create_config_from_dict' and len(args) >= 2:
            return ConfigRef('create_config_from_dict', args[1])
        if name == 'open' or last == 'open':
            key = args[0] if args else None
            if key is not None:
                self.keep.append(key)
            return FileHandle(file_key(key)) if key is not None else Opaque('open')
        self.note_loose(args, kwargs, n, ctx)
        return Opaque(safe_unparse(n))

    def copy_value(self, v, deep, ctx):
        if isinstance(v, SubCfg):
            return SubCfg(v.cls, v.section, self.copy_value(v.fields, deep, ctx), v.line)
        if not isinstance(v, (dict, list)):
            return v
        memo = {}
        c = copy.deepcopy(v, memo) if deep else copy.copy(v)
        # Keep the origin line and any taint of every dict that was copied.
        stack = [(v, c)]
        while stack:
            a, b = stack.pop()
            if id(a) in self.origins:
                self.origins[id(b)] = self.origins[id(a)]
            if id(a) in ctx.tainted:
                self.taint(b, ctx, ctx.tainted[id(a)])
            self.keep.append(b)
            if deep and isinstance(a, dict):
                for k in a:
                    if isinstance(a[k], (dict, list)) and k in b:
                        stack.append((a[k], b[k]))
            elif deep and isinstance(a, list):
                stack.extend((x, y) for x, y in zip(a, b) if isinstance(x, (dict, list)))
        return c

    def section_model(self, cls, args, kwargs, n, frame, ctx):
        section, record = SECTION_MODELS[cls]
        fields = dict(kwargs)
        if args and isinstance(args[0], dict):
            fields = dict(args[0], **fields)
        sub = SubCfg(cls, section, fields, n.lineno)
        if record and (fields or ctx.raises):
            self.use(cls, sub, n, frame, ctx, extra=[])
        return sub

    # ---------------------------------------------------------------- recording

    def use(self, kind, cfg, n, frame, ctx, extra, elastic=None, autoep=None):
        test = ctx.test
        if test is None:
            return
        wrapped = None
        added = []
        if isinstance(cfg, FileHandle):
            cfg = ctx.files.get(cfg.key, cfg)
        if isinstance(cfg, (Opaque, str)) and file_key(cfg) in ctx.files:
            cfg = ctx.files[file_key(cfg)]
        raw = None
        repo_file = None
        if isinstance(cfg, RepoPath):
            repo_file = cfg.rel
            text = self.loader.source.read(cfg.rel)
            try:
                cfg = json.loads(text) if text is not None else None
            except ValueError:
                cfg = RawText(text)
            if cfg is None:
                return
        if isinstance(cfg, RawText):
            raw = cfg.text
            cfg = {}
        if isinstance(cfg, ConfigRef):
            kind = f'{kind} via {cfg.kind}'
            cfg = cfg.cfg
        if isinstance(cfg, SubCfg):
            wrapped = f'{cfg.cls}(...) placed under "{".".join(cfg.section)}"'
            inner = cfg.fields
            config = {}
            cur = config
            for key in cfg.section[:-1]:
                cur[key] = {}
                cur = cur[key]
            cur[cfg.section[-1]] = inner
            config[BATCH_FILLER] = 1
            added.append(BATCH_FILLER)
            line = (frame.module.rel, cfg.line)
            root_objs = [inner]
        elif kind in ('get_bfloat16_config', 'parse_autoep_config') and isinstance(cfg, dict):
            if kind == 'parse_autoep_config':
                config = {'expert_parallel': cfg, BATCH_FILLER: 1}
                wrapped = 'parse_autoep_config(dict) placed under "expert_parallel"'
            else:
                config = dict(cfg)
                config[BATCH_FILLER] = 1
                wrapped = 'get_bfloat16_config(dict): the dict is a whole ds_config'
            added.append(BATCH_FILLER)
            line = self.origins.get(id(cfg), (frame.module.rel, n.lineno))
            root_objs = [cfg]
        elif isinstance(cfg, dict):
            config = cfg
            line = self.origins.get(id(cfg), (frame.module.rel, n.lineno))
            root_objs = [cfg]
        else:
            if isinstance(cfg, (str, Opaque)):
                self.log(f'config that is not a dict (a path or unresolved) at {frame.module.rel}:{n.lineno} '
                         f'in {test.rel}::{test.qualname}: {cfg!r}')
            return

        for obj in root_objs:
            for sub in walk_dicts(obj):
                if id(sub) in self.origins:
                    self.seen_origins.add(self.origins[id(sub)])

        unresolved, python_only, notes = [], [], list(extra)
        data = to_json(config, unresolved, python_only)
        tainted = [ctx.tainted[i] for i in (id(x) for x in walk_dicts(config)) if i in ctx.tainted]

        expected = 'REJECT' if ctx.raises else 'ACCEPT'
        exception = ctx.raises[-1] if ctx.raises else None
        world = test.world_size if test.distributed else 1
        decided, reasons = True, []

        if kind == 'compute_elastic_config':
            ver, ws = elastic
            world = ws if isinstance(ws, int) and ws > 0 else None
            if world is None and ws != 0:
                unresolved.append(f'world_size={ws!r}')
            if not (isinstance(ver, Dotted) and ver.last in ('version', '__version__')):
                decided = False
                reasons.append(f'compute_elastic_config is called with target_deepspeed_version={ver!r}, not the '
                               'running version: the outcome depends on that argument')
            el = config.get('elasticity') if isinstance(config, dict) else None
            if isinstance(el, dict) and el.get('enabled') is False:
                decided = False
                reasons.append('compute_elastic_config is called directly with elasticity disabled; '
                               'DeepSpeedConfig never calls it then')
            notes.append('compute_elastic_config(ds_config) is what DeepSpeedConfig calls when elasticity is enabled')
            if world is None:
                notes.append('no world_size given: the valid GPU counts are computed but not checked')
        if kind == 'validate_autoep_config':
            g = autoep
            world = g.get('world_size') if isinstance(g.get('world_size'), int) else None
            tp = g.get('tp_size')
            if isinstance(tp, int) and tp > 1:
                # The engine passes tp_size = tensor_parallel.autotp_size (engine.py autotp_size()).
                data['tensor_parallel'] = {'autotp_size': tp}
                notes.append('tp_size=%d is written as "tensor_parallel": {"autotp_size": %d}' % (tp, tp))
            others = {k: g.get(k) for k in ('pp_size', 'sp_size')}
            extra_kw = sorted(k for k in g if k not in ('config', 'world_size', 'pp_size', 'tp_size', 'sp_size'))
            if any(v != 1 for v in others.values()) or not isinstance(tp, int) or extra_kw:
                decided = False
                reasons.append('validate_autoep_config gets ' +
                               ', '.join(f'{k}={g.get(k)!r}' for k in ['pp_size', 'sp_size'] + extra_kw) +
                               ' that a ds_config alone does not set (pp and sp come from the mpu)')
            fields = cfg.fields if isinstance(cfg, SubCfg) else {}
            if fields.get('enabled') is not True:
                decided = False
                reasons.append('the engine calls validate_autoep_config only when expert_parallel.enabled is true')
            notes.append('validate_autoep_config(config, world_size, pp, tp, sp) is what the engine calls '
                         '(engine.py _configure_expert_parallel) when expert_parallel.enabled')
        if wrapped:
            notes.append(wrapped)

        if expected == 'REJECT':
            if kind.startswith('initialize') or kind.startswith('zero.Init'):
                decided = False
                reasons.append(f'raised inside {kind}: the test does not show that the config alone causes it')
            if ctx.mocks:
                decided = False
                reasons.append('a function is mocked: ' + '; '.join(ctx.mocks[-2:]))
        review = REVIEWED.get((test.rel, test.qualname.split(' ')[0]))
        source_line = None
        if isinstance(review, dict):
            # A test that asserts a failure after the entry point accepted the config (engine.compile() ...).
            expected, exception = review['expected'], review['exception']
            decided, reasons, source_line = review['decided'], [review['reason']], review['source']
        elif review is not None and expected == 'REJECT':
            decided, why, source_line = review(test.params, config) if callable(review) else review
            reasons = [why] if why else []
        partial = kind in PARTIAL_ENTRIES or kind in SECTION_MODELS
        if partial and kind not in ('compute_elastic_config', 'validate_autoep_config'):
            world = None  # a section model never sees the world size
        if partial and expected == 'ACCEPT':
            decided = False
            reasons = [f'only {kind}() is run: DeepSpeedConfig and the engine check this part against the rest of '
                       'a whole config (ZeRO stage, world size, other sections) as well']

        if test.skipped and not (unresolved or tainted):
            reasons = [(test.skipped if 'xfail' in test.skipped else f'{test.skipped}, so DeepSpeed\'s CI never runs it') +
                       (f'; the test expects {ctx.raises[-1]}' if ctx.raises else '; the test expects success')]
            expected = 'UNKNOWN'
            decided = False
        if unresolved or tainted:
            expected = 'UNKNOWN'
            decided = False
            reasons = ([f'unresolved: {", ".join(sorted(set(unresolved)))}'] if unresolved else []) + sorted(
                set(tainted)) + ([f'the test expects {ctx.raises[-1]}'] if ctx.raises else [])
        if expected == 'ACCEPT' and decided:
            reasons = []

        case = {
            'file': test.rel,
            'test': test.qualname,
            'line': line[1],
            'params': {k: to_json(v, [], []) for k, v in sorted(test.params.items())},
            'worldSize': world,
            'expected': expected,
            'exception': exception,
            'configDecided': decided,
            'reason': '; '.join(reasons) if reasons else None,
            'entry': kind,
            'config': data,
        }
        if repo_file:
            case['configFile'] = repo_file
            case['line'] = n.lineno
        if source_line and expected == 'REJECT':
            case['deepspeedSource'] = source_line
        if raw is not None:
            case['config'] = None
            case['configText'] = raw
            case['line'] = n.lineno
        if line[0] != test.rel and not repo_file:
            case['configFile'] = line[0]
        if added:
            case['addedKeys'] = added
        if python_only:
            case['pythonOnly'] = True
        if notes:
            case['notes'] = sorted(set(notes))
        ctx_cases = self.cases
        ctx_cases.append(case)


def walk_dicts(v, seen=None):
    seen = seen if seen is not None else set()
    out = []
    if isinstance(v, (dict, list, tuple)) and id(v) not in seen:
        seen.add(id(v))
        if isinstance(v, dict):
            out.append(v)
            for x in v.values():
                out.extend(walk_dicts(x, seen))
        else:
            for x in v:
                out.extend(walk_dicts(x, seen))
    return out


def to_json(v, unresolved, python_only):
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        if math.isinf(v):
            python_only.append('inf')
            return '__Infinity__' if v > 0 else '__-Infinity__'
        if math.isnan(v):
            python_only.append('nan')
            return '__NaN__'
        return v
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if isinstance(k, Opaque):
                unresolved.append(k.src)
                key = f'__unresolved__:{k.src}'
            elif isinstance(k, str):
                key = k
            else:
                python_only.append('non-string key')
                key = json.dumps(to_json(k, unresolved, python_only))
            out[key] = to_json(x, unresolved, python_only)
        return out
    if isinstance(v, (list, tuple)):
        return [to_json(x, unresolved, python_only) for x in v]
    if isinstance(v, SubCfg):
        return to_json(v.fields, unresolved, python_only)
    if isinstance(v, Opaque):
        unresolved.append(v.src)
        return f'__unresolved__:{v.src}'
    if isinstance(v, UnknownBool):
        unresolved.append('condition')
        return '__unresolved__:condition'
    if isinstance(v, Dotted):
        python_only.append(v.name)
        return f'__python__:{v.name}'
    if isinstance(v, set):
        python_only.append('set')
        return sorted((to_json(x, unresolved, python_only) for x in v), key=repr)
    if isinstance(v, ClassVal):
        python_only.append(v.name)
        return f'__python__:{v.name}'
    unresolved.append(type(v).__name__)
    return f'__unresolved__:{type(v).__name__}'


def compare(op, a, b):
    if isinstance(op, (ast.Is, ast.IsNot)) and (isinstance(a, Sentinel) or isinstance(b, Sentinel)):
        same = a is b
        return (not same) if isinstance(op, ast.IsNot) else same
    if isinstance(op, (ast.Is, ast.IsNot)):
        if isinstance(a, (Opaque, UnknownBool)) or isinstance(b, (Opaque, UnknownBool)):
            if a is None or b is None:
                # An opaque object (a model, a tensor) is not None.
                r = False
                return (not r) if isinstance(op, ast.IsNot) else r
            return UNKNOWN
        same = (a is b) or (isinstance(a, (Dotted, ClassVal)) and a == b)
        return (not same) if isinstance(op, ast.IsNot) else same
    if isinstance(a, (Opaque, UnknownBool)) or isinstance(b, (Opaque, UnknownBool)):
        return UNKNOWN
    if isinstance(op, (ast.In, ast.NotIn)):
        if contains_opaque(b) and not isinstance(b, dict):
            return UNKNOWN
        try:
            r = a in b
        except TypeError:
            return UNKNOWN
        return (not r) if isinstance(op, ast.NotIn) else r
    ops = {
        ast.Eq: lambda x, y: x == y, ast.NotEq: lambda x, y: x != y, ast.Lt: lambda x, y: x < y,
        ast.LtE: lambda x, y: x <= y, ast.Gt: lambda x, y: x > y, ast.GtE: lambda x, y: x >= y
    }
    if isinstance(a, (Dotted, Instance, FuncVal)) or isinstance(b, (Dotted, Instance, FuncVal)):
        if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(a, Dotted) and isinstance(b, Dotted):
            return ops[type(op)](a, b)
        if isinstance(op, (ast.Eq, ast.NotEq)) and (isinstance(a, (str, int, float, type(None)))
                                                     or isinstance(b, (str, int, float, type(None)))):
            return UNKNOWN if isinstance(a, Dotted) or isinstance(b, Dotted) else ops[type(op)](a, b)
        return UNKNOWN
    try:
        return ops[type(op)](a, b)
    except Exception:  # noqa: BLE001
        return UNKNOWN


def safe_unparse(n):
    try:
        s = ast.unparse(n)
    except Exception:  # noqa: BLE001
        s = type(n).__name__
    return s if len(s) <= 120 else s[:117] + '...'


def exception_name(node):
    if isinstance(node, ast.Tuple):
        return ' | '.join(exception_name(e) for e in node.elts)
    s = safe_unparse(node)
    return s.rsplit('.', 1)[-1]


def decorator_name(d):
    node = d.func if isinstance(d, ast.Call) else d
    return safe_unparse(node)


def is_static(node):
    return any(decorator_name(d) in ('staticmethod', 'classmethod') for d in node.decorator_list)


def is_generator(node):
    for n in ast.walk(node):
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            # ignore yields of nested functions
            return True
    return False


def first_yield(stmt):
    for n in ast.walk(stmt):
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return (stmt, n.value)
    return None


def terminates(body):
    """A branch that only skips, returns or raises: a run that goes on did not take it."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    if isinstance(last, ast.Expr) and isinstance(last.value, ast.Call):
        name = safe_unparse(last.value.func)
        return name.endswith('skip') or name.endswith('xfail')
    return False


ENTRY_NAMES = {'initialize', 'DeepSpeedConfig', 'compute_elastic_config', 'args_from_dict', 'Init',
               'validate_autoep_config', 'parse_autoep_config'} | set(SECTION_MODELS)


def is_entry_call(n):
    if not isinstance(n, ast.Call):
        return False
    f = n.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ''
    return name in ENTRY_NAMES


def looks_like_config(d):
    return any(isinstance(k, str) and k in DS_TOP_KEYS for k in d)


def initialize_notes(kwargs, args):
    notes = []
    if 'model' in kwargs and kwargs['model'] is None:
        notes.append('model=None')
    if kwargs.get('optimizer') is not None:
        notes.append('a client optimizer is passed to initialize')
    if kwargs.get('lr_scheduler') is not None:
        notes.append('a client lr_scheduler is passed to initialize')
    if kwargs.get('mpu') is not None:
        notes.append('an mpu is passed to initialize (the data-parallel size comes from it)')
    if kwargs.get('mesh_param') is not None:
        notes.append('mesh_param is passed to initialize')
    return notes


def bind_args(node, args, kwargs, bound, interp, frame, ctx):
    a = node.args
    positional = [p.arg for p in a.posonlyargs + a.args]
    out = {}
    args = list(args)
    if bound is not None:
        if positional:
            out[positional[0]] = bound
            positional = positional[1:]
    elif positional and positional[0] in ('self', 'cls') and not args:
        out[positional[0]] = Instance(None)
        positional = positional[1:]
    defaults = a.defaults
    all_pos = [p.arg for p in a.posonlyargs + a.args]
    offset = len(all_pos) - len(defaults)
    for i, name in enumerate(positional):
        if i < len(args):
            out[name] = args[i]
        elif name in kwargs:
            out[name] = kwargs[name]
        else:
            idx = all_pos.index(name) - offset
            out[name] = interp.eval(defaults[idx], frame, ctx) if idx >= 0 else Opaque(name)
    if a.vararg:
        out[a.vararg.arg] = tuple(args[len(positional):])
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        if p.arg in kwargs:
            out[p.arg] = kwargs[p.arg]
        else:
            out[p.arg] = interp.eval(d, frame, ctx) if d is not None else Opaque(p.arg)
    if a.kwarg:
        known = set(all_pos) | {p.arg for p in a.kwonlyargs}
        out[a.kwarg.arg] = {k: v for k, v in kwargs.items() if k not in known}
    return out


# --------------------------------------------------------------------------------------------------------------------
# Tests: discovery, parametrisation, fixtures, world sizes
# --------------------------------------------------------------------------------------------------------------------


class Extractor:

    def __init__(self, source, log):
        self.source = source
        self.loader = Loader(source)
        self.interp = Interp(self.loader, log)
        self.log = log
        self.fixture_runs = set()
        self.conftests = [self.loader.load(p) for p in ('tests/conftest.py', 'tests/unit/conftest.py')
                          if source.exists(p)]

    def run(self):
        files = [f for f in self.source.files if f.startswith('tests/unit/') and f.endswith('.py')]
        for rel in files:
            module = self.loader.load(rel)
            if module is None:
                self.log(f'cannot parse {rel}')
                continue
            name = rel.rsplit('/', 1)[-1]
            if not (name.startswith('test_') or name.endswith('_test.py')):
                continue
            for stmt in module.tree.body:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name.startswith('test'):
                    self.run_test(module, None, stmt)
                elif isinstance(stmt, ast.ClassDef) and stmt.name.startswith('Test'):
                    cls = ClassVal(stmt, module)
                    for m in self.class_methods(cls):
                        if m[0].startswith('test'):
                            self.run_test(module, cls, m[1], owner=m[2])
        self.add_unreached(files)

    def class_methods(self, cls, depth=0):
        seen = {}
        if depth > 6:
            return []
        for base in cls.node.bases:
            b = self.interp.eval(base, Frame(cls.module, None), Ctx(self.interp, None))
            if isinstance(b, ClassVal):
                for name, node, owner in self.class_methods(b, depth + 1):
                    seen[name] = (name, node, owner)
        for stmt in cls.node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                seen[stmt.name] = (stmt.name, stmt, cls)
        return list(seen.values())

    def is_distributed(self, cls, depth=0):
        if cls is None or depth > 8:
            return False
        for base in cls.node.bases:
            name = safe_unparse(base).rsplit('.', 1)[-1]
            if name in ('DistributedTest', 'DistributedExec', 'DistributedFixture'):
                return True
            b = self.interp.eval(base, Frame(cls.module, None), Ctx(self.interp, None))
            if isinstance(b, ClassVal) and self.is_distributed(b, depth + 1):
                return True
        return False

    def world_sizes(self, cls, func):
        for d in func.decorator_list:
            if isinstance(d, ast.Call) and decorator_name(d).endswith('mark.world_size') and d.args:
                v = self.interp.eval(d.args[0], Frame(cls.module, None), Ctx(self.interp, None))
                return v if isinstance(v, list) else [v]
        v = self.interp.class_attr(cls, 'world_size')
        if v is None:
            v = 2  # DistributedExec.world_size (tests/unit/common.py)
        if isinstance(v, (list, tuple)):
            return list(v)
        return [v]

    def parametrize(self, decorators, module):
        dims = []
        for d in decorators:
            if not (isinstance(d, ast.Call) and decorator_name(d).endswith('mark.parametrize')) or len(d.args) < 2:
                continue
            frame, ctx = Frame(module, None), Ctx(self.interp, None)
            names = self.interp.eval(d.args[0], frame, ctx)
            if isinstance(names, str):
                names = [x.strip() for x in names.split(',') if x.strip()]
            values = self.interp.eval(d.args[1], frame, ctx)
            if not isinstance(names, (list, tuple)) or not isinstance(values, (list, tuple)):
                dims.append([{str(n): Opaque(str(n)) for n in (names if isinstance(names, (list, tuple)) else [])}])
                continue
            rows = []
            for v in values:
                marks = None
                if isinstance(v, PytestParam):
                    marks = v.marks
                    v = v.values if len(names) > 1 else (v.values[0] if v.values else None)
                if len(names) == 1:
                    row = {names[0]: v}
                elif isinstance(v, (list, tuple)) and len(v) == len(names):
                    row = dict(zip(names, v))
                else:
                    row = {n: Opaque(n) for n in names}
                rows.append(row)
            dims.append(rows)
        return dims

    def run_test(self, module, cls, func, owner=None):
        owner = owner or cls
        qual = f'{cls.name}::{func.name}' if cls else func.name
        dims = []
        if cls is not None:
            dims += self.parametrize(cls.node.decorator_list, cls.module)
        dims += self.parametrize(func.decorator_list, (owner or cls).module if owner else module)
        named = {n for dim in dims for row in dim for n in row}
        a = func.args
        for p in [x.arg for x in a.posonlyargs + a.args]:
            if p in named:
                continue
            f = self.find_fixture(p, module, cls)
            values = self.fixture_params(f) if f is not None else None
            if values:
                dims.append([{p: v.values[0] if isinstance(v, PytestParam) and v.values else v} for v in values])
        distributed = self.is_distributed(cls)
        worlds = self.world_sizes(cls, func) if distributed else [None]
        skipped = self.skip_mark(func.decorator_list, (owner or cls).module if owner else module)
        if cls is not None and not skipped:
            skipped = self.skip_mark(cls.node.decorator_list, cls.module)
        combos = [dict()]
        for dim in dims:
            combos = [dict(c, **row) for c in combos for row in dim]
            if len(combos) > 512:
                self.log(f'{module.rel}::{qual}: more than 512 parametrisations, the first 512 are walked')
                combos = combos[:512]
        for world in worlds:
            for combo in combos:
                w = combo.get('world_size', world) if distributed else None
                test = TestInfo(module.rel, qual, dict(combo), w, distributed, skipped)
                self.walk(module, cls, owner, func, test)

    def fixture(self, name, module, cls, test, ctx, depth=0):
        if name in ctx.fixtures:
            return ctx.fixtures[name]
        value = self._fixture(name, module, cls, test, ctx, depth)
        ctx.fixtures[name] = value
        return value

    def find_fixture(self, name, module, cls):
        candidates = []
        if cls is not None:
            v = self.interp.class_attr(cls, name)
            if isinstance(v, FuncVal) and is_fixture(v.node):
                candidates.append(FuncVal(v.node, v.module, bound=Instance(cls), owner=cls))
        v = module.lookup(name, self.interp)
        if isinstance(v, FuncVal) and is_fixture(v.node):
            candidates.append(v)
        for c in self.conftests:
            if c is not None:
                v = c.lookup(name, self.interp)
                if isinstance(v, FuncVal) and is_fixture(v.node):
                    candidates.append(v)
        return candidates[0] if candidates else None

    def fixture_params(self, f):
        for d in f.node.decorator_list:
            if isinstance(d, ast.Call):
                for k in d.keywords:
                    if k.arg == 'params':
                        v = self.interp.eval(k.value, Frame(f.module, None), Ctx(self.interp, None))
                        if isinstance(v, (list, tuple)):
                            return list(v)
        return None

    def _fixture(self, name, module, cls, test, ctx, depth=0):
        if depth > 5:
            return Opaque(name)
        if name in test.params:
            return test.params[name]
        if name in ('tmpdir', 'tmp_path', 'class_tmpdir'):
            return TmpPath(f'{TMP_ROOT}/{name}')
        if name in ('tmpdir_factory', 'tmp_path_factory'):
            return Opaque(name)
        if name == 'monkeypatch':
            return Dotted('monkeypatch')
        if name == 'request':
            return Opaque('request')
        v = module.lookup(name, self.interp)
        if isinstance(v, ClassVal) and self.is_distributed_fixture(v):
            self.run_distributed_fixture(v, test)
            return Opaque(name)
        f = self.find_fixture(name, module, cls)
        if f is None:
            return Opaque(name)
        args = {}
        a = f.node.args
        params = [p.arg for p in a.posonlyargs + a.args]
        if f.bound is not None and params:
            params = params[1:]
        for p in params:
            if p == 'request':
                req = Instance(None)
                key = f'{name}'
                if key in test.params:
                    req.attrs['param'] = test.params[key]
                args[p] = req
            else:
                args[p] = self.fixture(p, f.module, cls, test, ctx, depth + 1)
        try:
            return self.interp.call_function(f, [], args, f.node, ctx)
        except (Skip, StopPath):
            return Opaque(name)

    def skip_mark(self, decorators, module):
        """'marked skip' / 'marked xfail' / 'skipped by skipif(...)' when the test does not run (or may fail)."""
        for d in decorators:
            text = safe_unparse(d)
            if isinstance(d, ast.Name) and d.id in module.assigns:
                text = safe_unparse(module.assigns[d.id][-1].value)
            if '.mark.skipif' in text and isinstance(d, ast.Call) and d.args:
                cond = self.interp.eval(d.args[0], Frame(module, None), Ctx(self.interp, None))
                if self.interp.truth(cond) is True:
                    return f'the test is skipped by @pytest.mark.skipif({safe_unparse(d.args[0])}) on the assumed machine'
            elif '.mark.skip' in text:
                return 'the test is marked @pytest.mark.skip'
            elif '.mark.xfail' in text:
                return 'the test is marked @pytest.mark.xfail (its failure is tolerated)'
        return None

    def is_distributed_fixture(self, cls, depth=0):
        if depth > 8:
            return False
        for base in cls.node.bases:
            if safe_unparse(base).rsplit('.', 1)[-1] == 'DistributedFixture':
                return True
            b = self.interp.eval(base, Frame(cls.module, None), Ctx(self.interp, None))
            if isinstance(b, ClassVal) and self.is_distributed_fixture(b, depth + 1):
                return True
        return False

    def run_distributed_fixture(self, cls, test):
        """A DistributedFixture the test requests runs first, with its own world size: its configs count too."""
        key = (cls.module.rel, cls.name, test.rel, test.qualname, json.dumps(to_json(test.params, [], []),
                                                                           sort_keys=True))
        if key in self.fixture_runs:
            return
        self.fixture_runs.add(key)
        run = self.interp.class_attr(cls, 'run')
        if not isinstance(run, FuncVal):
            return
        ws = self.interp.class_attr(cls, 'world_size')
        ws = ws if isinstance(ws, int) else 2
        sub = TestInfo(test.rel, f'{test.qualname} (fixture {cls.name}.run)', dict(test.params), ws, True)
        self.walk(cls.module, cls, cls, run.node, sub)

    def walk(self, module, cls, owner, func, test):
        ctx = Ctx(self.interp, test)
        frame = Frame(owner.module if owner else module, None)
        a = func.args
        params = [p.arg for p in a.posonlyargs + a.args]
        inst = None
        if cls is not None:
            inst = Instance(cls)
            if test.world_size is not None:
                inst.attrs['world_size'] = test.world_size
            if params:
                frame.vars[params[0]] = inst
                params = params[1:]
        defaults = dict(zip([p.arg for p in (a.posonlyargs + a.args)][-len(a.defaults):], a.defaults)) if a.defaults \
            else {}
        try:
            for p in params + [k.arg for k in a.kwonlyargs]:
                if p in test.params:
                    frame.vars[p] = test.params[p]
                elif p in defaults:
                    frame.vars[p] = self.interp.eval(defaults[p], frame, ctx)
                else:
                    frame.vars[p] = self.fixture(p, module, cls, test, ctx)
            for k, d in zip(a.kwonlyargs, a.kw_defaults):
                if k.arg not in test.params and d is not None:
                    frame.vars[k.arg] = self.interp.eval(d, frame, ctx)
            self.interp.exec_body(func.body, frame, ctx)
        except (Skip, StopPath, ReturnSig, BreakSig, ContinueSig):
            pass
        except RecursionError:
            self.log(f'recursion in {test.rel}::{test.qualname}')
        except Exception as e:  # noqa: BLE001
            self.log(f'interpreter error in {test.rel}::{test.qualname}: {type(e).__name__}: {e}')
        for cfg, callee in ctx.loose:
            origin = self.interp.origins.get(id(cfg))
            if origin and origin not in self.interp.seen_origins:
                self.log(f'config handed to code the extractor does not follow: {test.rel}::{test.qualname} '
                         f'line {origin[1]} -> {callee}')

    def add_unreached(self, files):
        """Config-looking dict literals that no walk delivered to a DeepSpeed entry point: recorded as UNKNOWN."""
        for rel in files:
            module = self.loader.load(rel)
            if module is None:
                continue
            parents = {}
            for node in ast.walk(module.tree):
                for child in ast.iter_child_nodes(node):
                    parents[child] = node
            for node in ast.walk(module.tree):
                if not isinstance(node, ast.Dict):
                    continue
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
                if not keys & DS_TOP_KEYS or len(keys & DS_TOP_KEYS) < 1:
                    continue
                p = parents.get(node)
                nested = False
                while p is not None:
                    if isinstance(p, ast.Dict):
                        nested = True
                        break
                    p = parents.get(p)
                if nested or (rel, node.lineno) in self.interp.seen_origins:
                    continue
                if not self.is_config_dict(node, keys):
                    continue
                func, qual = enclosing(node, parents)
                unresolved, python_only = [], []
                frame, ctx = Frame(module, None), Ctx(self.interp, None)
                value = self.interp.eval(node, frame, ctx)
                data = to_json(value, unresolved, python_only)
                case = {
                    'file': rel,
                    'test': qual,
                    'line': node.lineno,
                    'params': {},
                    'worldSize': None,
                    'expected': 'UNKNOWN',
                    'exception': None,
                    'configDecided': False,
                    'reason': 'the extractor did not follow this dict to a DeepSpeed entry point'
                              + (f' (unresolved: {", ".join(sorted(set(unresolved)))})' if unresolved else ''),
                    'entry': None,
                    'config': data,
                }
                if python_only:
                    case['pythonOnly'] = True
                self.interp.cases.append(case)

    def is_config_dict(self, node, keys):
        # Two DeepSpeed top-level keys, or one batch key, make a ds_config; a lone "optimizer"/"scheduler"/"fp16"
        # dict is most often something else (a param group, a model kwarg...).
        strong = {'train_batch_size', 'train_micro_batch_size_per_gpu', 'zero_optimization'}
        return bool(keys & strong) or len(keys & DS_TOP_KEYS) >= 2


def is_fixture(node):
    return any(decorator_name(d) in ('pytest.fixture', 'fixture') for d in node.decorator_list)


def enclosing(node, parents):
    names = []
    p = parents.get(node)
    while p is not None:
        if isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(p.name)
        p = parents.get(p)
    names.reverse()
    return (names[-1] if names else None), ('::'.join(names) if names else '<module>')


# --------------------------------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------------------------------


def case_key(c):
    return (c['file'], c['test'], c['line'], json.dumps(c['params'], sort_keys=True),
            -1 if c['worldSize'] is None else c['worldSize'], json.dumps(c['config'], sort_keys=True),
            c.get('configText') or '', c['expected'], c['entry'] or '')


def param_id(params):
    if not params:
        return ''
    parts = []
    for k, v in params.items():
        parts.append(f'{k}={json.dumps(v, sort_keys=True, separators=(",", ":"))}')
    return '[' + ','.join(parts) + ']'


def finish(cases):
    # One case per distinct (test, line, params, world size, config, outcome, entry).
    unique = {}
    for c in cases:
        k = case_key(c) + (c['exception'] or '', str(c['configDecided']), c['reason'] or '')
        unique.setdefault(k, c)
    cases = sorted(unique.values(), key=lambda c: case_key(c) + (c['exception'] or '', c['reason'] or ''))
    # Parametrisations that produce the same config and outcome are merged, keeping the first parameter set.
    merged, index = [], {}
    for c in cases:
        k = (c['file'], c['test'], c['line'], c['worldSize'], json.dumps(c['config'], sort_keys=True),
             c.get('configText'), c['expected'], c['exception'], c['configDecided'], c['reason'], c['entry'])
        if k in index:
            index[k]['paramSets'] += 1
            continue
        c = dict(c)
        c['paramSets'] = 1
        index[k] = c
        merged.append(c)
    ids = {}
    out = []
    for c in merged:
        base = f"{c['file'][len('tests/unit/'):]}::{c['test']}{param_id(c['params'])}@L{c['line']}"
        if c['worldSize'] is not None:
            base += f"/ws{c['worldSize']}"
        n = ids.get(base, 0)
        ids[base] = n + 1
        cid = base if n == 0 else f'{base}#{n + 1}'
        ordered = {'id': cid}
        for key in ('file', 'test', 'line', 'params', 'paramSets', 'worldSize', 'expected', 'exception',
                    'configDecided', 'reason', 'deepspeedSource', 'entry', 'configFile', 'addedKeys', 'pythonOnly',
                    'notes', 'config', 'configText'):
            if key in c:
                ordered[key] = c[key]
        out.append(ordered)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('deepspeed', help='a DeepSpeed checkout, or its git directory (bare or not)')
    ap.add_argument('--commit', help='read this commit with git show (default: the files on disk, or HEAD of a '
                    'git directory without a work tree)')
    ap.add_argument('--quiet', action='store_true', help='no notes on stderr')
    opts = ap.parse_args()
    sys.setrecursionlimit(20000)
    log_lines = []

    def log(msg):
        log_lines.append(msg)

    source = Source(opts.deepspeed, opts.commit)
    ex = Extractor(source, log)
    ex.run()
    cases = finish(ex.interp.cases)
    if not opts.quiet:
        for line in sorted(set(log_lines)):
            print(line, file=sys.stderr)
    counts = {
        'cases': len(cases),
        'ACCEPT': sum(c['expected'] == 'ACCEPT' for c in cases),
        'REJECT': sum(c['expected'] == 'REJECT' for c in cases),
        'UNKNOWN': sum(c['expected'] == 'UNKNOWN' for c in cases),
        'configDecided': sum(bool(c['configDecided']) for c in cases),
        'configDecidedACCEPT': sum(bool(c['configDecided']) and c['expected'] == 'ACCEPT' for c in cases),
        'configDecidedREJECT': sum(bool(c['configDecided']) and c['expected'] == 'REJECT' for c in cases),
    }
    version = (source.read('version.txt') or '').strip() or None
    doc = {
        'source': {
            'repository': 'deepspeedai/DeepSpeed',
            'commit': source.commit,
            'version': version,
            'tests': 'tests/unit/**/*.py',
        },
        'generator': 'scripts/deepspeed-oracle/extract.py',
        'assumptions': ASSUMPTIONS,
        'counts': counts,
        'cases': cases,
    }
    # The header pretty-printed, then one case per line: small, and a changed case is a one-line diff.
    head = {k: v for k, v in doc.items() if k != 'cases'}
    text = json.dumps(head, indent=2, ensure_ascii=False)
    body = ',\n'.join('    ' + json.dumps(c, ensure_ascii=False, separators=(', ', ': ')) for c in cases)
    sys.stdout.write(text[:-2] + ',\n  "cases": [\n' + body + '\n  ]\n}\n')


if __name__ == '__main__':
    main()
