import { Route, Routes } from 'react-router';
import MonitorCreatePage from '../pages/monitor-create-page.tsx';
import MonitorEditPage from '../pages/monitor-edit-page.tsx';
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
