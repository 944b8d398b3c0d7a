import type { ZeroStage } from './types';

/**
 * Model-state bytes per device as the ZeRO paper (Rajbhandari et al. 2020, §5 and Table 1) writes them:
 * Ψ params, K bytes of optimizer state per param (12 for mixed-precision Adam), N_d data-parallel devices.
 * Stage 0: (2+2+K)Ψ; 1 (P_os): 4Ψ + KΨ/N_d; 2 (P_os+g): 2Ψ + (2+K)Ψ/N_d; 3 (P_os+g+p): (2+2+K)Ψ/N_d.
 */
export function zeroPaperModelStates(psi: number, nd: number, stage: ZeroStage, K = 12): number {
  switch (stage) {
    case 0:
      return (2 + 2 + K) * psi;
    case 1:
      return 4 * psi + (K * psi) / nd;
    case 2:
      return 2 * psi + ((2 + K) * psi) / nd;
    case 3:
      return ((2 + 2 + K) * psi) / nd;
  }
}
