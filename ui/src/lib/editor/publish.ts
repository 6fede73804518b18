// Publishing a draft without overwriting a change made elsewhere: the server's current version is read
// first, and when it differs from the version the draft started from, nothing is written and the three
// versions come back as a conflict. The desktop shell does the same in crates/sync (and records the
// published version for the history); a browser does it here.
import type { Backend } from '../backend/Backend';
import type { Configuration } from '../types/generated';
import type { PublishOutcome } from '../types/sync';
import { sameSettings, threeWay } from './conflict';

export async function publishDraft(backend: Backend, id: number, mine: Configuration, base: Configuration): Promise<PublishOutcome> {
  if (backend.desktop) return backend.desktop.publish(id, mine, base);
  const theirs = await backend.getConfiguration(id);
  if (!sameSettings(theirs, base)) {
    return { status: 'conflict', conflict: { base, mine, theirs, fields: threeWay(base, mine, theirs) } as never };
  }
  return { status: 'published', outcome: await backend.updateConfiguration(id, mine) };
}
