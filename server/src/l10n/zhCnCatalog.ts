import zhCn from '../../../l10n/bundle.l10n.zh-cn.json';
import { hashedCatalog } from './messageHash';

/**
 * The Chinese catalog keyed by `messageHash`. The build bundles the same table computed ahead of time, with only
 * the messages the core uses, in place of this module (`scripts/l10n.ts core-bundle`, `scripts/build.mjs`).
 */
export default hashedCatalog(zhCn as Record<string, string>);
