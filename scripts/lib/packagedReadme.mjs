// The README as the installed extension's page shows it. That page renders README.md inside a webview that
// resolves relative paths against VS Code's own files, and offline there is no repository URL to point them
// at. So pictures are embedded (the page's policy allows https: and data: images only, and it loads nothing from
// the extension's folder) and links to files of the source repository become their plain names. The pictures
// are lossy WebP (scripts/lib/webp.mjs), and base64 in a zip costs about what the binary file would.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const imageTypes = { '.webp': 'image/webp', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.svg': 'image/svg+xml' };
const external = /^(?:[a-z][a-z0-9+.-]*:|#)/i;

/** `markdown` with relative images embedded (read from `root`) and relative links turned into code text. */
export function packagedReadme(markdown, root) {
  return markdown
    .replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, (whole, alt, target) => {
      if (external.test(target)) return whole;
      const type = imageTypes[path.extname(target).toLowerCase()];
      if (!type) throw new Error(`README image ${target}: unknown type`);
      const data = readFileSync(path.join(root, target)).toString('base64');
      return `![${alt}](data:${type};base64,${data})`;
    })
    .replace(/(?<!!)\[([^\]]+)\]\(([^)\s]+)\)/g, (whole, text, target) => {
      if (external.test(target) || target.startsWith('data:')) return whole;
      const file = target.replace(/#.*$/, '');
      return text === file || text === target ? `\`${file}\`` : `${text} (\`${file}\`)`;
    });
}
