/** Accelerate configs the TRL and alignment-handbook tests launch with. */

// https://github.com/huggingface/alignment-handbook/blob/925acdfe4b2b4e38c3dabd1851bc418f0b656351/recipes/accelerate_configs/zero3.yaml
export const zero3 = `compute_environment: LOCAL_MACHINE
debug: false
deepspeed_config:
  deepspeed_multinode_launcher: standard
  offload_optimizer_device: none
  offload_param_device: none
  zero3_init_flag: true
  zero3_save_16bit_model: true
  zero_stage: 3
distributed_type: DEEPSPEED
downcast_bf16: 'no'
machine_rank: 0
main_training_function: main
mixed_precision: bf16
num_machines: 1
num_processes: 8
rdzv_backend: static
same_network: true
tpu_env: []
tpu_use_cluster: false
tpu_use_sudo: false
use_cpu: false
`;

// https://github.com/huggingface/trl/blob/f2cd57710ae345ea6428ae95363267fcf38a3dc8/examples/accelerate_configs/deepspeed_zero3.yaml
// and trl/accelerate_configs/zero3.yaml are the same text.
