"""Extracts published parameter totals and config.json fields from llmfit's model list into
scripts/catalog/inputs/counts/llmfit.json and scripts/catalog/inputs/configs/llmfit.json.

    python3 scripts/catalog/import/llmfit.py <llmfit git dir>

llmfit's data/hf_models.json records, per Hugging Face repo, `parameters_raw`: the hub's safetensors total
(`safetensors.total` of the model API, i.e. the sum of the checkpoint's tensor sizes). Every stored version of
the file is read (newer ones are too large for the snapshot); the newest version that lists a model wins.
Kept: repos the catalog can use (ids of the registries and the config inputs), not quantised copies, with a
total that is not a round number (early versions held rounded figures); where versions disagree, the newest
is kept but used as a discovered total (below).
Entries llmfit discovered on its own (`_discovered`) are marked: when the hub had no safetensors metadata,
llmfit put its own estimate there, so the catalog build uses them only to within 0.01% of a count.
Checkpoints whose stored tensors are not the parameters are excluded below, each with its reason.

llmfit also copies a few config.json fields per repo (model_type as `architecture`, hidden size, layers,
heads, KV heads, head dim, vocabulary, intermediate size — `moe_intermediate_size` holds the config's
`moe_intermediate_size` or else its `intermediate_size` — and the experts). Where a repo has all of them
those fields become a config record; it does not say whether embeddings are tied, so the catalog build
settles that by the repo's total or leaves the record out. Kept for every repo whose fields are complete
(any organisation: fine-tunes and re-uploads of a catalogued model join its entry when their shape agrees),
not for multimodal wrappers (their towers are not in the fields) except the families whose tower a second source
states (VISION_TEMPLATES, INTERNVL_HF below), and not for test fixtures, toy models
and speculative-decoding draft heads (NOT_MODELS), which nobody trains with DeepSpeed.
"""
import json
import os
import re
import subprocess
import sys

from inputfile import github_source, write_input

REPO = sys.argv[1]
HERE = os.path.dirname(__file__)
INPUTS = os.path.join(HERE, '..', 'inputs')
OUT = os.path.join(INPUTS, 'counts', 'llmfit.json')
CONFIGS_OUT = os.path.join(INPUTS, 'configs', 'llmfit.json')
# Language-model families whose config fields llmfit copies completely (no towers, no unlisted widths).
TEXT_FAMILIES = {'llama', 'mistral', 'mixtral', 'qwen2', 'qwen2_moe', 'qwen3', 'qwen3_moe', 'gemma', 'gemma2', 'gemma3_text', 'phi3',
                 'internlm', 'internlm2', 'internlm3', 'granite', 'olmo', 'olmo2', 'olmoe', 'starcoder2', 'seed_oss', 'ernie4_5',
                 'minicpm', 'exaone4', 'smollm3', 'helium', 'stablelm', 'glm', 'glm4', 'baichuan', 'qwen', 'orion', 'phimoe',
                 'gpt_oss', 'olmo3'}
# Multimodal families whose vision tower is one for every size: NeMo's conversion configs state it once per family.
NEMO = 'https://github.com/NVIDIA/NeMo/blob/8cfedd7203462cb251a914e700e5605444277561/nemo/collections/vlm/'
VISION_TEMPLATES = {
    'gemma3': ({'hidden_size': 1152, 'intermediate_size': 4304, 'num_hidden_layers': 27, 'patch_size': 14, 'image_size': 896, 'num_channels': 3},
               NEMO + 'vision/siglip_vit.py (SigLIPViT400M_14_384_Config, 896 px as in gemma3vl/model/vision.py)'),
    'qwen2_5_vl': ({'depth': 32, 'hidden_size': 1280, 'intermediate_size': 3420, 'patch_size': 14, 'temporal_patch_size': 2, 'spatial_merge_size': 2, 'in_chans': 3},
                   NEMO + 'qwen2vl/model/base.py (Qwen25VLVisionConfig)'),
    'qwen2_vl': ({'depth': 32, 'embed_dim': 1280, 'mlp_ratio': 4, 'patch_size': 14, 'temporal_patch_size': 2, 'spatial_merge_size': 2, 'in_chans': 3},
                 NEMO + 'qwen2vl/model/base.py (Qwen2VLVisionConfig)'),
    # llava-hf's LLaVA and LLaVA-NeXT with CLIP ViT-L/14 at 336 px (the tower of LLaVA 1.5 and 1.6); a model of these
    # families with another tower (SigLIP) does not fit its published total and so is left out.
    'llava': (CLIP_L14_336 := {'model_type': 'clip_vision_model', 'hidden_size': 1024, 'intermediate_size': 4096, 'num_hidden_layers': 24,
                               'patch_size': 14, 'image_size': 336, 'num_channels': 3},
              NEMO + 'vision/clip_vit.py (CLIPViTL_14_336_Config)'),
    'llava_next': (CLIP_L14_336, NEMO + 'vision/clip_vit.py (CLIPViTL_14_336_Config)'),
}
# InternVL in transformers' format (`internvl`): its tower differs by size, so only models whose parts InternVL's
# README names are taken: the vision part (InternViT-300M-448px-V2_5, NeMo's InternViT_300M_448px_Config) and the
# language model, whose model_type the text fields get. mlp1 shuffles 2x2 patches (downsample_ratio 0.5, the
# default of InternVL's configuration_internvl_chat.py).
INTERNVL_GIT = 'https://github.com/OpenGVLab/InternVL/blob/2410d1dbf208f0e799459aff9376e5747dbf41a2/'
INTERNVIT_300M = {'hidden_size': 1024, 'num_hidden_layers': 24, 'intermediate_size': 4096, 'patch_size': 14, 'image_size': 448, 'num_channels': 3,
                  'attention_bias': True, 'use_qk_norm': False, 'norm_type': 'layer_norm'}
INTERNVL_HF = {
    'OpenGVLab/InternVL3-1B-hf': ('qwen2', 'README.md:142-146 (InternVL3-1B: InternViT-300M-448px-V2_5, Qwen2.5-0.5B)'),
    'OpenGVLab/InternVL3-2B-hf': ('qwen2', 'README.md:149-153 (InternVL3-2B: InternViT-300M-448px-V2_5, Qwen2.5-1.5B)'),
    'OpenGVLab/InternVL3-8B-hf': ('qwen2', 'README.md:156-160 (InternVL3-8B: InternViT-300M-448px-V2_5, Qwen2.5-7B)'),
}
PATHS = ['llmfit-core/data/hf_models.json', 'data/hf_models.json']
# Organisations Hugging Face renamed (the old name redirects): llmfit lists the new name, the registries the old.
RENAMED_ORGS = {'CohereLabs': 'CohereForAI'}
# Hub totals that count more than the parameters.
NOT_PARAMETERS = {
    'deepseek-ai/DeepSeek-V3': 'FP8 checkpoint: the total counts the weight_scale_inv tensors and the MTP layer (launchers-and-models.md 3.3)',
    'deepseek-ai/DeepSeek-V3-0324': 'FP8 checkpoint (as DeepSeek-V3)',
    'deepseek-ai/DeepSeek-V3-Base': 'FP8 checkpoint (as DeepSeek-V3)',
    'deepseek-ai/DeepSeek-R1': 'FP8 checkpoint (as DeepSeek-V3)',
}
# GPT-NeoX checkpoints (Pythia, StableLM-alpha) store each layer's causal-mask buffer.
BUFFER_FAMILIES = re.compile(r'^(EleutherAI/pythia|stabilityai/stablelm-.*alpha|stabilityai/stablecode-.*alpha)', re.I)
# Test fixtures (random weights), toy models and draft heads of speculative decoding.
NOT_MODELS = re.compile(r'(tiny-random|tiny-dummy|random-|-random|dummy|unit-test|testing|-test\b|tiny-mixtral|TinyLLama-v0|'
                        r'/Tiny-LLM$|stories15M|DFlash|Eagle3|EAGLE-|speculator)', re.I)
QUANTISED = re.compile(r'(AWQ|GPTQ|FP8|NVFP4|MXFP|INT4|INT8|W4A16|W8A8|bnb|MLX|GGUF|-4bit|-8bit|quantized)', re.I)


def git(*args, text=True):
    return subprocess.run(['git', '-C', REPO, *args], check=True, capture_output=True, text=text).stdout


def wanted_orgs(ids):
    return {i.split('/')[0] for i in ids if '/' in i}


def config_record(m, where):
    """A config record from llmfit's copied fields, or None when one is missing."""
    family = m.get('architecture')
    fields = ('hidden_size', 'num_hidden_layers', 'num_attention_heads', 'num_key_value_heads', 'head_dim', 'vocab_size', 'moe_intermediate_size')
    if family == 'internvl' and m.get('name') not in INTERNVL_HF:
        return None
    if (family not in TEXT_FAMILIES and family not in VISION_TEMPLATES and family != 'internvl') or any(not isinstance(m.get(f), int) for f in fields):
        return None
    config = {'model_type': family, **{f: m[f] for f in fields if f != 'moe_intermediate_size'}}
    if m.get('num_experts') and m.get('active_experts'):
        config.update(num_experts=m['num_experts'], num_experts_per_tok=m['active_experts'], moe_intermediate_size=m['moe_intermediate_size'])
        if family in ('mixtral', 'gpt_oss'):  # their config's intermediate_size is the expert width
            config['intermediate_size'] = m['moe_intermediate_size']
        if m.get('shared_expert_intermediate_size'):
            config['shared_expert_intermediate_size'] = m['shared_expert_intermediate_size']
    else:
        config['intermediate_size'] = m['moe_intermediate_size']
    record = {'id': m['name'], 'config': config, 'settle': ['tie_word_embeddings'], 'where': where}
    if family in VISION_TEMPLATES:
        vision, url = VISION_TEMPLATES[family]
        vision = {**vision, 'out_hidden_size' if family == 'qwen2_5_vl' else 'hidden_size' if family == 'qwen2_vl' else '_': m['hidden_size']}
        vision.pop('_', None)
        if family == 'gemma3':
            record['config'] = {'model_type': 'gemma3', 'text_config': {**config, 'model_type': 'gemma3_text'}, 'vision_config': vision}
        else:
            config['vision_config'] = vision
        record['extraSources'] = [{'title': 'NeMo vision configs (one per model family)', 'url': url, 'licence': 'Apache-2.0', 'for': 'vision_config'}]
    if family == 'internvl':
        text_type, row = INTERNVL_HF[m['name']]
        record['config'] = {'model_type': 'internvl', 'downsample_ratio': 0.5, 'text_config': {**config, 'model_type': text_type}, 'vision_config': INTERNVIT_300M}
        record['extraSources'] = [
            {'title': 'NeMo vision configs (InternViT_300M_448px_Config)', 'url': NEMO + 'vision/intern_vit.py', 'licence': 'Apache-2.0', 'for': 'vision_config'},
            {'title': "InternVL's model table (vision and language parts)", 'url': INTERNVL_GIT + 'README.md', 'licence': 'MIT', 'for': f'tower and text model_type: {row}'},
            {'title': "InternVL's chat config (downsample_ratio default)", 'url': INTERNVL_GIT + 'internvl_chat/internvl/model/internvl_chat/configuration_internvl_chat.py',
             'licence': 'MIT', 'for': 'downsample_ratio'},
        ]
    return record


def wanted_ids():
    ids = set()
    for name in os.listdir(os.path.join(INPUTS, 'registries')):
        for fam in json.load(open(os.path.join(INPUTS, 'registries', name)))['families']:
            for m in fam['models']:
                for key in ('hf', 'ms'):
                    if m.get(key):
                        ids.add(m[key].lower())
    for name in os.listdir(os.path.join(INPUTS, 'configs')):
        if os.path.join(INPUTS, 'configs', name) == CONFIGS_OUT:
            continue  # this script's own output: the same inputs give the same file
        for m in json.load(open(os.path.join(INPUTS, 'configs', name)))['models']:
            ids.add(m['id'].lower())
            ids.update(v.lower() for v in m.get('aliases', []))
    return ids


def main():
    wanted = wanted_ids()
    orgs = wanted_orgs(wanted)
    configs = {}
    commits = git('log', '--format=%H %cI', '--', *PATHS).split('\n')
    totals, seen = {}, {}
    for line in commits:
        if not line:
            continue
        commit, date = line.split(' ')
        for path in PATHS:
            try:
                if int(git('cat-file', '-s', f'{commit}:{path}')) >= 4 * 1024 * 1024:
                    continue
                models = json.loads(git('show', f'{commit}:{path}'))
            except (subprocess.CalledProcessError, ValueError):
                continue
            for m in models:
                name, total = m.get('name'), m.get('parameters_raw')
                org = name.split('/')[0]
                renamed = f' (listed as {name})' if org in RENAMED_ORGS else ''
                if renamed:
                    name = m['name'] = RENAMED_ORGS[org] + name[len(org):]
                if not isinstance(total, int) or total % 1_000_000 == 0:
                    continue
                if QUANTISED.search(name) or NOT_MODELS.search(name) or name in NOT_PARAMETERS or BUFFER_FAMILIES.search(name):
                    continue
                record = config_record(m, f'{path}@{commit[:12]}{renamed}')
                if name.lower() not in wanted and name.split('/')[0].lower() not in orgs and not record:
                    continue
                seen.setdefault(name, set()).add(total)
                if record and (name not in configs or configs[name][0] < date):
                    configs[name] = (date, record)
                if name not in totals or totals[name]['date'] < date:
                    totals[name] = {'id': name, 'total': total, 'date': date, 'where': f'{path}@{commit[:12]}{renamed}', 'discovered': bool(m.get('_discovered'))}
    # The newest version's total; where versions disagree (an early estimate later replaced by the hub's), it
    # is used as a discovered one: only to within 0.01% of a count.
    records = [{'id': t['id'], 'total': t['total'], 'where': t['where'] + (' (older versions list other totals)' if len(seen[t['id']]) > 1 else ''),
                **({'discovered': True} if t['discovered'] or len(seen[t['id']]) > 1 else {})}
               for t in sorted(totals.values(), key=lambda t: t['id'].lower())]
    head = git('rev-parse', 'HEAD').strip()
    source = github_source("llmfit's Hugging Face model list (hub safetensors totals)", 'AlexsJones/llmfit',
                           'llmfit-core/data/hf_models.json (and data/hf_models.json in older commits)', head, 'MIT', kind='tree', url_path='',
                           note='parameters_raw is the Hugging Face API safetensors.total of the repo (scripts/scrape_hf_models.py, scrape_model).')
    write_input(OUT, source, 'counts', records)
    kept = {r['id'] for r in records}
    config_records = [r for _, r in sorted(configs.values(), key=lambda c: c[1]['id'].lower()) if r['id'] in kept]
    write_input(CONFIGS_OUT, {**source, 'title': "llmfit's Hugging Face model list (config.json fields)",
                              'note': 'architecture = config model_type; moe_intermediate_size = the config moe_intermediate_size or intermediate_size.'},
                'models', config_records)


main()
