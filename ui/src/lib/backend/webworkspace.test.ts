// The browser build's connection check, by the cases the desktop's check (crates/sync, connection.rs) satisfies
// too: crates/sync/cases/connection.json.
import { describe, expect, test } from 'vitest';
import { webWorkspace } from './webworkspace';
import { BackendError, type Api } from './Backend';
import type { Configuration, ErrorCode } from '../types/generated';
import connectionFile from '../../../../crates/sync/cases/connection.json';

describe('the shared connection cases (crates/sync/cases/connection.json)', () => {
  for (const c of connectionFile.cases) {
    test(c.name, async () => {
      const failure = c.failure;
      const api = {
        defaultConfiguration: async () => {
          if (failure) throw new BackendError(failure.code as ErrorCode, failure.message);
          return {} as Configuration;
        },
      } as Partial<Api> as Api;
      expect(await webWorkspace(api, 'https://a.example').checkConnection()).toEqual({ backend: 'https://a.example', ...c.state });
    });
  }
});
