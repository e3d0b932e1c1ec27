import type { ComponentType } from 'react';
import type { UseFormReturnType } from '@mantine/form';
import type {
  ConnectedService,
  Connection,
  Monitor,
  MonitorInput,
  Provider,
  ServiceDefinition,
} from '@vigil/contracts';
import type { FormErrors } from '../form-numbers.ts';
import type { MonitorFormValues } from '../monitor-form.ts';

/** One condition as the form holds it: on/off plus its parameters (numbers may be '' while typed). */
export type ConditionValue = { enabled: boolean } & Record<string, string | number | boolean>;

/** A service's own part of the form values (a website's address; a shop and its products). */
export type TargetValues = Record<string, unknown>;

/** What a service adds to the request body: its id, target and conditions, as the contracts type them. */
export type ServicePart = MonitorInput extends infer Input
  ? Input extends MonitorInput
    ? Pick<Input, 'service' | 'target' | 'conditions'>
    : never
  : never;

/** What a service's section asks of the page: leave for the provider to connect an account. */
export interface ConnectRequest {
  /** The service to connect an account for (a shop, a Google account, a Facebook account). */
  service: ConnectedService;
  /** Shopify: the shop as typed, or as a connection names it. */
  shop?: string;
  /** Reconnects this monitor's account. */
  monitorId?: string;
}

/**
 * Saves the form and where to come back, then leaves for the provider's authorize page. Resolves with the
 * server's message when that could not start (the page stays); with '' if the page comes back from the
 * back-forward cache; otherwise never (the browser leaves).
 */
export type ConnectAccount = (request: ConnectRequest) => Promise<string>;

export interface ServiceSectionProps {
  form: UseFormReturnType<MonitorFormValues>;
  definition: ServiceDefinition;
  /** The monitor being edited; absent while creating one. */
  monitorId?: string | undefined;
  /** The edited monitor's target as the server holds it (not as restored after connecting a shop). */
  savedTarget?: TargetValues | undefined;
  connect: ConnectAccount;
}

/**
 * Everything the web app knows about one service, behind one interface (the registry in `index.ts` maps
 * the service id to it): its form section, its values, their checks and body. How a monitor's target shows in
 * the list and the detail is `display.ts`'s.
 */
export interface ServiceModule<T extends TargetValues = TargetValues> {
  service: ServicePart['service'];
  /** The provider whose connection the service watches through, for services that connect an account. */
  provider?: Provider;
  /** The section's values: empty for a new monitor, else the monitor's. */
  initialTarget(monitor?: Monitor): T;
  /** Chooses a connection just made (back from the provider) in the section's values. */
  withConnection?(target: T, connection: Connection): T;
  /**
   * Checks the section and the conditions (already read within the catalogue's bounds) and builds the body's
   * service part; errors are keyed by form path.
   */
  check(
    target: T,
    conditions: Record<string, ConditionValue>,
  ): { errors: FormErrors; part: ServicePart | null };
  /** A server field path under `target` → the form's path (defaults to the same path). */
  formFieldOf?(path: string): string;
  /** Words for the values of its conditions' choice parameters (a website's keyword mode). */
  conditionOptionLabels?: Readonly<Record<string, string>>;
  /** Form paths whose errors the section shows beside the fields. */
  shownErrors: RegExp;
  /** The section of the form: what exactly to watch. */
  Section: ComponentType<ServiceSectionProps>;
}
