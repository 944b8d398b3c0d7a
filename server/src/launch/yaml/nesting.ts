/**
 * The yaml library composes nested collections recursively. Thousands of levels (a generated or corrupt
 * file) bring it near the stack limit, where V8 aborts the whole process ("RegExpCompiler Allocation
 * failed") instead of throwing, so no try/catch can save the server. Launcher YAML nests two or three
 * levels; anything near this bound is not one of ours.
 */
export const maxYamlNesting = 256;

/**
 * An upper bound on the nesting depth, without parsing: each block level needs at least one column of
 * indentation or one `- `, `? `, `: ` indicator before the line's content, and each flow level a bracket.
 * Brackets inside strings and comments count too, which only overestimates.
 */
export function yamlNestingBound(text: string): number {
  let flow = 0;
  let maxFlow = 0;
  let maxPrefix = 0;
  let prefix = 0;
  let atLineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 /* \n */) {
      atLineStart = true;
      prefix = 0;
      continue;
    }
    if (atLineStart) {
      // space, tab, '-', '?', ':'
      if (c === 32 || c === 9 || c === 45 || c === 63 || c === 58) {
        prefix++;
        if (prefix > maxPrefix) maxPrefix = prefix;
        continue;
      }
      atLineStart = false;
    }
    if (c === 91 /* [ */ || c === 123 /* { */) {
      flow++;
      if (flow > maxFlow) maxFlow = flow;
    } else if ((c === 93 /* ] */ || c === 125 /* } */) && flow > 0) {
      flow--;
    }
  }
  // Flow collections may sit inside block ones, not the other way round.
  return maxPrefix + maxFlow;
}
