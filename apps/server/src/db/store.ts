import { createAlertRepository } from '../engine/alert.repository.ts';
import { createBillingRepository } from '../modules/billing/billing.repository.ts';
import { createNoticeRepository } from '../modules/billing/notice.repository.ts';
import { createPlanLimitsRepository } from '../modules/billing/plan-limits.repository.ts';
import { createCheckRepository } from '../engine/check.repository.ts';
import { createPhoneRepository } from '../engine/phone.repository.ts';
import { createResultPartitionRepository } from '../engine/result-partition.repository.ts';
import { createIncidentRepository } from '../modules/alerts/incident.repository.ts';
import { createServerSecretRepository } from '../modules/alerts/server-secret.repository.ts';
import { createConnectionRepository } from '../modules/connections/connection.repository.ts';
import { createContactRepository } from '../modules/contacts/contact.repository.ts';
import { createCheckHistoryRepository } from '../modules/monitors/check-history.repository.ts';
import { createMonitorRepository } from '../modules/monitors/monitor.repository.ts';
import { createOidcRepository } from '../modules/oidc/oidc.repository.ts';
import { createRateLimitRepository } from '../modules/rate-limits/rate-limit.repository.ts';
import { createResetCodeRepository } from '../modules/auth/reset-code.repository.ts';
import { createSessionRepository } from '../modules/sessions/session.repository.ts';
import { createUserRepository } from '../modules/users/user.repository.ts';
import type { Db } from './database.ts';

function createRepositories(db: Db) {
  return {
    users: createUserRepository(db),
    sessions: createSessionRepository(db),
    resetCodes: createResetCodeRepository(db),
    rateLimits: createRateLimitRepository(db),
    oidc: createOidcRepository(db),
    monitors: createMonitorRepository(db),
    checkHistory: createCheckHistoryRepository(db),
    incidents: createIncidentRepository(db),
    contacts: createContactRepository(db),
    serverSecrets: createServerSecretRepository(db),
    checks: createCheckRepository(db),
    resultPartitions: createResultPartitionRepository(db),
    alerting: createAlertRepository(db),
    phone: createPhoneRepository(db),
    connections: createConnectionRepository(db),
    billing: createBillingRepository(db),
    notices: createNoticeRepository(db),
    planLimits: createPlanLimitsRepository(db),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;

/**
 * Every repository on the database, and `transaction`, which hands the same repositories bound to one
 * transaction. Inside it use only those: on PGlite, a query outside the open transaction waits for it forever.
 */
export interface Store extends Repositories {
  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
}

export function createStore(db: Db): Store {
  return {
    ...createRepositories(db),
    transaction: (work) => db.transaction((tx) => work(createRepositories(tx))),
  };
}
