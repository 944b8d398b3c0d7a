/** The flow a user goes through to repair a problem with Ctrl+., shared by the ds_config and launch-script suites. */
import { positionOf } from '../scenarios';
import { placeScenario, readText } from './files';
import type { Problem, Workbench } from './workbench';

/** A scenario whose problem (diagnostic `code`) a quick fix titled like `fix` repairs. */
export interface FixScenario {
  source: string;
  name: string;
  code: string;
  fix: RegExp;
}

/**
 * Opens the scenario's file, waits for its problem, puts the cursor inside `token`, picks the fix, waits
 * until `landed` holds for the text on screen, saves, and waits for the problem to go. Returns the chosen
 * fix's title and the saved text.
 */
export async function applyScenarioFix(
  wb: Workbench,
  s: FixScenario,
  token: string,
  landed: (text: string) => boolean,
  what: string,
): Promise<{ chosen: string; saved: string }> {
  const { file, text } = placeScenario(wb.instance.workspace, s);
  const hasProblem = (problems: Problem[]) => problems.some((x) => x.code === s.code && x.file === s.name);
  await wb.openFile(s.name);
  await wb.problems(hasProblem, s.name);
  const at = positionOf(text, token);
  await wb.editor.goTo(at.line, at.column + 2);
  const chosen = await wb.editor.applyQuickFix(s.fix);
  await wb.editor.waitForText(landed, what);
  await wb.editor.save();
  const saved = readText(file);
  await wb.problems((problems) => !hasProblem(problems), s.name);
  return { chosen, saved };
}
