/**
 * A connected service's part of saving a monitor (services/<service>/<service>.service.ts): the target as the
 * form sent it, checked against the provider and turned into what the monitor stores (names, prices, ids as
 * they are now). `existing` is the monitor's stored target before this change, kept while the account cannot
 * be read and nothing watched changed.
 */
export interface TargetPreparer<Input = unknown, Target = unknown> {
  prepareTarget(
    userId: string,
    input: Input,
    existing?: Target,
  ): Promise<{ target: Target; connectionId: string }>;
}
