import { Alert, Stack, Text, Title } from '@mantine/core';
import type { Connection } from '@vigil/contracts';
import { IconAlertTriangle } from '../../../../components/icons.tsx';
import { ErrorState, SectionSpinner } from '../../../../components/page-states.tsx';
import { useRequest } from '../../../../lib/use-request.ts';
import { getConnections } from '../../api/get-connections.ts';
import type { ServiceSectionProps } from '../types.ts';
import type { ChosenProduct, ShopifyTargetValues } from './index.ts';
import { ProductPicker, type ProductListing } from './product-picker.tsx';
import { ShopChooser } from './shop-chooser.tsx';
import { countProducts } from './shopify-format.ts';

/** A Shopify monitor's section: the shop (chosen, reconnected or connected) and then its products. */
export function ShopifySection({ form, monitorId, savedTarget, connect }: ServiceSectionProps) {
  const target = form.getValues().target as ShopifyTargetValues;
  const connections = useRequest('connections:shopify', (signal) => getConnections('shopify', signal));
  // The edited monitor's own shop: it lists and reconnects through the monitor.
  const monitorConnectionId = (savedTarget as ShopifyTargetValues | undefined)?.connectionId;

  function setTarget(next: ShopifyTargetValues) {
    form.setFieldValue('target', next);
    form.clearFieldError('target.connectionId');
  }

  function chooseShop(connectionId: string) {
    // Products belong to a shop: another shop starts with none chosen.
    setTarget({ connectionId, products: connectionId === target.connectionId ? target.products : [] });
  }

  function chooseProducts(products: ChosenProduct[]) {
    form.setFieldValue('target', { ...target, products });
    form.clearFieldError('target.products');
  }

  const reconnectMonitorId = (connection: Connection) =>
    monitorId && connection.connectionId === monitorConnectionId ? monitorId : undefined;

  const list = connections.data?.list;
  const chosen = list?.find((connection) => connection.connectionId === target.connectionId);
  // The edited monitor's shop lists through the monitor (the spec's call); a shop chosen here, by connection.
  const listing: ProductListing | null = !chosen
    ? null
    : monitorId && chosen.connectionId === monitorConnectionId
      ? { monitorId }
      : { connectionId: chosen.connectionId };

  let shops;
  if (!list && connections.status === 'failed') {
    shops = (
      <ErrorState title="Your connected shops could not be loaded" onRetry={connections.reload}>
        Check your connection and try again.
      </ErrorState>
    );
  } else if (!list) {
    shops = <SectionSpinner label="Loading your connected shops" />;
  } else {
    shops = (
      <ShopChooser
        connections={list}
        value={target.connectionId}
        onChange={chooseShop}
        error={form.errors['target.connectionId'] as string | undefined}
        connect={connect}
        reconnectMonitorId={reconnectMonitorId}
      />
    );
  }

  return (
    <Stack gap="lg">
      {shops}
      {chosen && listing ? (
        <Stack gap="sm" component="section" aria-labelledby="shopify-products-title">
          <Stack gap={2}>
            <Title order={3} fz="md" id="shopify-products-title">
              Products to watch
            </Title>
            <Text size="sm" c="dimmed">
              Stock, publication, price and checkout are checked on these products of {chosen.name}.
            </Text>
          </Stack>
          {chosen.status === 'active' ? (
            <ProductPicker
              key={chosen.connectionId}
              listing={listing}
              chosen={target.products}
              onChange={chooseProducts}
              error={form.errors['target.products'] as string | undefined}
            />
          ) : (
            <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} role="status">
              Reconnect {chosen.account} to see its products.
              {target.products.length > 0
                ? ` The ${countProducts(target.products.length)} chosen before stay chosen.`
                : ''}
            </Alert>
          )}
        </Stack>
      ) : target.products.length === 0 && form.errors['target.products'] ? (
        <Text size="sm" c="red" role="alert">
          {form.errors['target.products']}
        </Text>
      ) : null}
    </Stack>
  );
}
