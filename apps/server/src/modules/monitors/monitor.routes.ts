import type { preHandlerAsyncHookHandler } from 'fastify';
import {
  checkNowBody,
  monitorChecksQuery,
  monitorChecksResponse,
  monitorCountResponse,
  monitorIdsBody,
  monitorIdsQuery,
  monitorInfoQuery,
  monitorInput,
  monitorListQuery,
  monitorListResponse,
  monitorResponse,
  monitorServiceResponse,
  monitorStatsQuery,
  monitorStatsResponse,
  monitorSummaryResponse,
  monitorUpdateBody,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, SESSION_SECURITY } from '../../lib/route-schemas.ts';
import { sessionOf } from '../sessions/authenticate.ts';
import type { MonitorService } from './monitor.service.ts';

const tags = ['monitors'];
const ALL_OR_NOTHING =
  'All the ids or none: one that does not exist or is not yours answers 404 and nothing changes.';

export const monitorRoutes: FastifyPluginAsyncZod<{
  monitors: MonitorService;
  authenticate: preHandlerAsyncHookHandler;
}> = async (app, { monitors, authenticate }) => {
  const guarded = { preHandler: authenticate };

  app.get(
    '/monitor-bff/monitor-service',
    {
      schema: {
        tags,
        summary: 'The services Vigil watches, their conditions with defaults and bounds, and alert languages',
        description: 'Public, like the plan catalogue. The plan’s shortest interval applies on top.',
        response: { 200: monitorServiceResponse },
      },
    },
    async () => ({ data: monitors.catalogue() }),
  );

  app.post(
    '/monitor-bff/monitor',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'Create a monitor; its first check runs at once',
        description:
          'Beyond the contract: the plan in force bounds the running monitors (paused ones are not counted), the connected accounts their monitors watch through and the shortest interval (each a 400 naming the plan; with no plan running, a 400 saying so); SMS and calls need a plan with them and a verified number; a ticked email must be verified with send-code / verify-code.',
        security: SESSION_SECURITY,
        body: monitorInput,
        response: { 200: monitorResponse, ...errorResponses(401, 413) },
      },
    },
    async (request) => ({ data: await monitors.create(sessionOf(request), request.body) }),
  );

  app.put(
    '/monitor-bff/monitor',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'Change a monitor’s settings; its history stays',
        security: SESSION_SECURITY,
        body: monitorUpdateBody,
        response: { 200: monitorResponse, ...errorResponses(401, 404, 413) },
      },
    },
    async (request) => ({ data: await monitors.update(sessionOf(request), request.body) }),
  );

  app.get(
    '/monitor-bff/monitor',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'Your monitors, newest first, with status, last check, 24-hour uptime and open incidents',
        security: SESSION_SECURITY,
        querystring: monitorListQuery,
        response: { 200: monitorListResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({
      data: await monitors.list(sessionOf(request), request.query.page, request.query.pageSize),
    }),
  );

  app.get(
    '/monitor-bff/monitor-summary',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'How many running monitors are down or confirming a failure, and how many alerts are open',
        description: 'For the tab title and the navbar; open means not acknowledged and not resolved.',
        security: SESSION_SECURITY,
        response: { 200: monitorSummaryResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await monitors.summary(sessionOf(request)) }),
  );

  app.get(
    '/monitor-bff/monitor-info',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'One monitor',
        security: SESSION_SECURITY,
        querystring: monitorInfoQuery,
        response: { 200: monitorResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({ data: await monitors.get(sessionOf(request), request.query.monitorId) }),
  );

  app.get(
    '/monitor-bff/monitor-stats',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'Uptime over 24 h, 7 d and 30 d, and response times over the chosen range',
        description:
          'The series lists every bucket of the range (5 minutes for 24h, an hour for 7d and 30d), oldest first; a bucket without checks has checks 0 and null times. `downtime` lists when the monitor had an incident in the range, overlapping incidents merged; `to` is null while one is unresolved.',
        security: SESSION_SECURITY,
        querystring: monitorStatsQuery,
        response: { 200: monitorStatsResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      data: await monitors.stats(sessionOf(request), request.query.monitorId, request.query.range),
    }),
  );

  app.get(
    '/monitor-bff/monitor-checks',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'The last checks one by one (at most 100), oldest first, for the status bar',
        description:
          'Each check with when it ran, whether it passed, its response time, HTTP status and error; fewer than `limit` while the monitor is new.',
        security: SESSION_SECURITY,
        querystring: monitorChecksQuery,
        response: { 200: monitorChecksResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      data: await monitors.recentChecks(sessionOf(request), request.query.monitorId, request.query.limit),
    }),
  );

  app.delete(
    '/monitor-bff/monitor',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'Delete monitors with their history and incidents',
        description: `monitor_ids comma-separated or repeated, at most 100. ${ALL_OR_NOTHING}`,
        security: SESSION_SECURITY,
        querystring: monitorIdsQuery,
        response: { 200: monitorCountResponse, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      data: { count: await monitors.remove(sessionOf(request), request.query.monitor_ids) },
    }),
  );

  app.post(
    '/monitor-bff/monitor-pause',
    {
      ...guarded,
      schema: {
        tags,
        summary:
          'Pause monitors: no checks and no alerts until started (Vigil no longer resumes them by itself)',
        description: ALL_OR_NOTHING,
        security: SESSION_SECURITY,
        body: monitorIdsBody,
        response: { 200: monitorCountResponse, ...errorResponses(401, 404, 413) },
      },
    },
    async (request) => ({
      data: { count: await monitors.pause(sessionOf(request), request.body.monitor_ids) },
    }),
  );

  app.post(
    '/monitor-bff/monitor-start',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'Start paused monitors; each is checked at once',
        description: `${ALL_OR_NOTHING} The plan in force must have room for them (running monitors counted) and cover their accounts, else 400 and none starts. Starting clears the reason Vigil paused a monitor for.`,
        security: SESSION_SECURITY,
        body: monitorIdsBody,
        response: { 200: monitorCountResponse, ...errorResponses(401, 404, 413) },
      },
    },
    async (request) => ({
      data: { count: await monitors.start(sessionOf(request), request.body.monitor_ids) },
    }),
  );

  app.post(
    '/monitor-bff/monitor-check',
    {
      ...guarded,
      schema: {
        tags,
        summary: 'Check a monitor now, between its scheduled checks',
        description:
          'The next check moves to this moment; the result shows on the monitor and its alerts within seconds. Paused monitors answer 409; 10 on-demand checks per monitor in 10 minutes, then 429.',
        security: SESSION_SECURITY,
        body: checkNowBody,
        response: { 200: monitorResponse, ...errorResponses(401, 404, 409, 429) },
      },
    },
    async (request) => ({ data: await monitors.checkNow(sessionOf(request), request.body.monitorId) }),
  );
};
