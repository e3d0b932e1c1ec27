import { useEffect, useState } from 'react';
import type { Connection } from '@vigil/contracts';
import { type ApiFailure } from '../../../lib/api-client.ts';
import { bindConnection } from '../api/bind-connection.ts';

/** Claimed keys and their connection, so a reload of the page shows the shop again instead of "already used". */
export const CLAIMED_BINDINGS_KEY = 'vigil.claimedBindings';

export type Claim = { ok: true; connection: Connection } | { ok: false; message: string };

// A held connection's key is single-use: one request per key however often the page renders.
const claims = new Map<string, Promise<Claim>>();

/** Claims the connection held under `key` (an install that started on the provider's side) for this user. */
export function claimBinding(key: string): Promise<Claim> {
  let pending = claims.get(key);
  if (!pending) {
    const claimed = readClaimed()[key];
    pending = claimed ? Promise.resolve({ ok: true, connection: claimed }) : post(key);
    claims.set(key, pending);
  }
  return pending;
}

async function post(key: string): Promise<Claim> {
  const result = await bindConnection({ key });
  if (!result.ok) return { ok: false, message: messageOf(result) };
  if (result.data.status !== 'bound') {
    return {
      ok: false,
      message: 'The shop is still waiting to be connected. Connect it again from the form.',
    };
  }
  writeClaimed({ ...readClaimed(), [key]: result.data.connection });
  return { ok: true, connection: result.data.connection };
}

function messageOf(failure: ApiFailure): string {
  return failure.status === 0
    ? 'Vigil could not be reached to connect the shop. Check your connection and reload the page.'
    : failure.message;
}

function readClaimed(): Record<string, Connection> {
  try {
    const value = JSON.parse(window.sessionStorage.getItem(CLAIMED_BINDINGS_KEY) ?? '{}') as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, Connection>) : {};
  } catch {
    return {};
  }
}

function writeClaimed(value: Record<string, Connection>): void {
  try {
    window.sessionStorage.setItem(CLAIMED_BINDINGS_KEY, JSON.stringify(value));
  } catch {
    // Storage unavailable: a reload claims again and shows the server's answer.
  }
}

export type ClaimState = { status: 'none' } | { status: 'claiming' } | ({ status: 'done' } & Claim);

/** The claim of a pending binding's key, once per key; `none` without a key. */
export function useClaimBinding(key: string | undefined): ClaimState {
  const [state, setState] = useState<{ key: string; claim: Claim } | null>(null);
  useEffect(() => {
    if (!key) return;
    let active = true;
    void claimBinding(key).then((claim) => {
      if (active) setState({ key, claim });
    });
    return () => {
      active = false;
    };
  }, [key]);
  if (!key) return { status: 'none' };
  if (state?.key !== key) return { status: 'claiming' };
  return { status: 'done', ...state.claim };
}
