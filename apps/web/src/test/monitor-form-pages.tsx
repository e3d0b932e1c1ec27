import type { VerifiedContact } from '@vigil/contracts';
import { Route, Routes } from 'react-router';
import { vi } from 'vitest';
import { getMonitorService } from '../features/monitors/api/get-monitor-service.ts';
import { getVerifiedContacts } from '../features/monitors/api/get-verified-contacts.ts';
import { getPlans } from '../features/plans/api/get-plans.ts';
import { setUserInfo } from '../lib/session.ts';
import MonitorCreatePage from '../pages/monitor-create-page.tsx';
import MonitorEditPage from '../pages/monitor-edit-page.tsx';
import { allPlans, catalogue, ok } from './monitor-fixtures.ts';
import { renderWithProviders, Where } from './render.tsx';

/** /monitor_create and /monitor_edit at `url`, with where the app went shown by `Where`. */
export function renderMonitorFormAt(url: string) {
  return renderWithProviders(
    <Routes>
      <Route
        path="/monitor_create"
        element={
          <>
            <MonitorCreatePage />
            <Where />
          </>
        }
      />
      <Route path="/monitor_edit" element={<MonitorEditPage />} />
      <Route path="*" element={<Where />} />
    </Routes>,
    { url },
  );
}

const TWO_EMAILS: VerifiedContact[] = [
  { channel: 'email', address: 'owner@shop.com', verifiedAt: '2026-01-01T00:00:00Z' },
  { channel: 'email', address: 'ana@shop.com', verifiedAt: '2026-01-01T00:00:00Z' },
];

/**
 * Answers what every monitor form asks before its service's own calls: the catalogue, the plans and the
 * verified contacts. The test file mocks those api modules.
 */
export function answerMonitorFormCalls(contacts: VerifiedContact[] = TWO_EMAILS) {
  vi.mocked(getMonitorService).mockResolvedValue(ok(catalogue));
  vi.mocked(getPlans).mockResolvedValue(ok({ list: allPlans }));
  vi.mocked(getVerifiedContacts).mockResolvedValue(ok({ list: contacts }));
}

/** Signs owner@shop.com in on `plan`, for a day more. */
export function signInOn(plan: string) {
  setUserInfo({
    email: 'owner@shop.com',
    industry: 'Pets',
    telPhone: null,
    contactEmail: 'owner@shop.com',
    plan,
    planExpiresin: Math.floor(Date.now() / 1000) + 86_400,
  });
}
