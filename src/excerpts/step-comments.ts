// Step comments, in the two styles the book quotes: upstream's own `// Step 4: Create a sandbox ...`
// (SyncPod, startContainer) and the numbered `// 4. 调用 CRI RunPodSandbox` the article uses elsewhere.
// This reads the text of one comment; which comments lie inside the quoted function is the parser's job.

export interface StepComment {
  n: number;
  text: string;
  style: 'step' | 'numbered';
}

const STEP_STYLE = /^\/\/\s*step\s+(\d+)\s*[:.)]?\s*(.*)$/i;
const NUMBERED_STYLE = /^\/\/\s*(\d+)\s*[.)、]\s*(\S.*)$/;

/** The step a line comment declares, or undefined. `comment` is the comment's own text (`// ...`). */
export function readStepComment(comment: string): StepComment | undefined {
  const text = comment.trim();
  const step = STEP_STYLE.exec(text);
  if (step) return { n: Number(step[1]), text: step[2].trim(), style: 'step' };
  const numbered = NUMBERED_STYLE.exec(text);
  if (numbered) return { n: Number(numbered[1]), text: numbered[2].trim(), style: 'numbered' };
  return undefined;
}

/** A whole `// ...` line: the author left lines out here. */
export function isElisionComment(comment: string): boolean {
  return /^\/\/\s*(?:\.\.\.|…)\s*$/.test(comment.trim());
}
