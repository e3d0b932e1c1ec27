import type { OnboardingBody, UpdateUserInfoBody, UserInfo } from '@vigil/contracts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuthSession } from '../sessions/session.service.ts';
import type { UserPatch, UserRepository, UserRow } from './user.repository.ts';

/** The spec's userInfo: planExpiresin is Unix seconds, or the string '0' before any plan was chosen. */
export function toUserInfo(user: UserRow): UserInfo {
  return {
    email: user.email,
    industry: user.industry,
    telPhone: user.telPhone,
    contactEmail: user.contactEmail,
    plan: user.plan,
    planExpiresin: user.planExpiresAt ?? '0',
  };
}

function accountGone(): AppError {
  return new AppError('UNAUTHORIZED', 'Your session has ended. Sign in again.');
}

const KEEP_A_CONTACT =
  'Keep a contact phone number or a contact email, so we can reach you when something breaks.';
const CONTACT_FIELDS = ['telPhone', 'contactEmail'] as const;

/** Only fields the body names change; null clears a contact field. */
function patchOf(body: UpdateUserInfoBody): UserPatch {
  const patch: UserPatch = {};
  if (body.industry !== undefined) patch.industry = body.industry;
  if (body.telPhone !== undefined) patch.telPhone = body.telPhone;
  if (body.contactEmail !== undefined) patch.contactEmail = body.contactEmail;
  return patch;
}

export function createUserService(deps: { users: UserRepository; clock: Clock }) {
  const { users, clock } = deps;

  /** Onboarding asks for a contact; clearing one must not take an account below that. */
  async function clearContact(session: AuthSession, patch: UserPatch): Promise<UserInfo> {
    const user = await users.updateKeepingAContact(session.userId, patch, clock.now());
    if (user) return toUserInfo(user);
    if (!(await users.findById(session.userId))) throw accountGone();
    const cleared = CONTACT_FIELDS.filter((field) => patch[field] === null);
    throw new AppError('INVALID', KEEP_A_CONTACT, {
      details: cleared.map((path) => ({ path, message: KEEP_A_CONTACT })),
    });
  }

  async function update(session: AuthSession, patch: UserPatch): Promise<UserInfo> {
    if (CONTACT_FIELDS.some((field) => patch[field] === null)) return clearContact(session, patch);
    const user = Object.keys(patch).length
      ? await users.update(session.userId, patch, clock.now())
      : await users.findById(session.userId);
    if (!user) throw accountGone();
    return toUserInfo(user);
  }

  return {
    async get(session: AuthSession): Promise<UserInfo> {
      const user = await users.findById(session.userId);
      if (!user) throw accountGone();
      return toUserInfo(user);
    },

    update: (session: AuthSession, body: UpdateUserInfoBody) => update(session, patchOf(body)),

    /** The onboarding form: industry always; a contact field left out keeps what the account has. */
    onboard: (session: AuthSession, body: OnboardingBody) => update(session, patchOf(body)),
  };
}
export type UserService = ReturnType<typeof createUserService>;
