// "Why this document?": an engine that explains its similar documents and recommendations (the local one, asked
// with `explain=true`) sends each with the reasons it scored; this turns them into one sentence. Other servers
// send none, and the preview then shows nothing.

import type { Explanation, Reason } from '../types/generated';

const PHRASES: Record<string, [string, string]> = {
  concept: ['the concept', 'the concepts'],
  'broader-concept': ['the broader concept', 'the broader concepts'],
  'narrower-concept': ['the narrower concept', 'the narrower concepts'],
  'sibling-concept': ['the related concept', 'the related concepts'],
  term: ['the word', 'the words'],
  author: ['the author', 'the authors'],
};

const list = (items: string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/** "Shares the concepts Games and Sports, and the broader concept Leisure." (reasons in the engine's order). */
export function explanationText(e: Explanation): string {
  const kinds: string[] = [];
  const byKind = new Map<string, string[]>();
  for (const r of e.reasons) {
    if (!byKind.has(r.kind)) kinds.push(r.kind);
    byKind.set(r.kind, [...(byKind.get(r.kind) ?? []), `“${r.label || r.value}”`]);
  }
  if (kinds.length === 0) return 'No shared concept or word was recorded.';
  const parts = kinds.map((k) => {
    const names = byKind.get(k)!;
    const [one, many] = PHRASES[k] ?? ['', ''];
    return `${names.length === 1 ? one : many} ${list(names)}`.trim();
  });
  return `Shares ${list(parts)}.`;
}

/** The explanation a document carries, if it is shaped like one. */
export function explanationOf(doc: unknown): Explanation | null {
  const e = (doc as { explanation?: unknown } | null)?.explanation as Partial<Explanation> | undefined;
  if (!e || typeof e.plugin !== 'string' || !Array.isArray(e.reasons)) return null;
  const reasons = e.reasons.filter((r): r is Reason => !!r && typeof r.kind === 'string' && typeof r.value === 'string');
  return { plugin: e.plugin, reasons: reasons.map((r) => ({ ...r, label: typeof r.label === 'string' ? r.label : r.value })) };
}
