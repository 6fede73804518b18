// What the recovery screen shows and does when the desktop app finds its local store damaged (or behind its
// newest backup) at launch: the problem in plain words, Recover (the shell's recovery, then what was saved),
// going on with the store as it is, and opening the data folder. The editor starts only once the store is open.
import type { Desktop } from '../backend/Backend';
import { BackendError } from '../backend/Backend';
import type { RecoverReport } from '../types/desktop';

export type Phase = 'problem' | 'recovering' | 'recovered' | 'failed';

/** SQLite's words for a damaged file, said for a designer. */
export function plainProblem(problem: string): string {
  const p = problem.toLowerCase();
  if (p.includes('not a database')) return 'The file is no longer a database Search Studio can read: its beginning has been overwritten or replaced.';
  if (p.includes('malformed') || p.includes('corrupt')) return 'Parts of the file are damaged and cannot be read.';
  if (p.includes('truncat') || p.includes('short')) return 'The file is shorter than it should be: its end is missing.';
  return `The file cannot be read (${problem}).`;
}

/** What a recovery saved, one line each, for the screen. */
export function savedLines(report: RecoverReport): string[] {
  const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const lines = [
    `${n(report.configurations, 'configuration', 'configurations')}, ${n(report.drafts, 'draft', 'drafts')}, ` +
      `${n(report.versions, 'published version', 'published versions')} and ${n(report.history, 'history entry', 'history entries')} saved.`,
  ];
  if (report.fromBackup > 0) lines.push(`${n(report.fromBackup, 'configuration was', 'configurations were')} taken from the newest backup.`);
  lines.push(`${n(report.documents, 'document', 'documents')} kept.`);
  return lines;
}

export class Recovery {
  phase: Phase = $state('problem');
  report: RecoverReport | null = $state.raw(null);
  error = $state('');
  #desktop: Desktop;

  constructor(desktop: Desktop) {
    this.#desktop = desktop;
  }

  /** Runs the shell's recovery; on success the store is open and `report` says what was saved. */
  async recover(): Promise<void> {
    if (this.phase === 'recovering') return;
    this.phase = 'recovering';
    this.error = '';
    try {
      this.report = await this.#desktop.recoverStore();
      this.phase = 'recovered';
    } catch (e) {
      this.error = BackendError.from(e).message;
      this.phase = 'failed';
    }
  }

  /** Goes on with a store behind its backup as it is; true when the store is open. */
  async openAsIs(): Promise<boolean> {
    this.error = '';
    try {
      await this.#desktop.openStoreAsIs();
      return true;
    } catch (e) {
      this.error = BackendError.from(e).message;
      return false;
    }
  }

  async openDataFolder(): Promise<void> {
    try {
      await this.#desktop.openFolder('data');
    } catch (e) {
      this.error = BackendError.from(e).message;
    }
  }
}
