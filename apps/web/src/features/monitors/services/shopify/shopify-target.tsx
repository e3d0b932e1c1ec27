import { Alert, Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { MonitorListItem } from '@vigil/contracts';
import { IconAlertTriangle } from '../../../../components/icons.tsx';
import { ReconnectButton } from '../../connect/reconnect-button.tsx';
import { formatMoney } from '../../../../lib/format-money.ts';
import { connectionProblem, countProducts } from './shopify-format.ts';
import { Thumbnail } from './thumbnail.tsx';

/** The shop and how many products, and a lost connection with its Reconnect, in a list row. */
export function ShopifyTargetSummary({ monitor }: { monitor: MonitorListItem }) {
  if (monitor.service !== 'shopify') return null;
  const problem = connectionProblem(monitor);
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed" truncate="end">
        {monitor.target.shop} · {countProducts(monitor.target.products.length)}
      </Text>
      {problem ? (
        <Group gap="xs" wrap="wrap">
          <Text size="sm" c="red.8" fw={600}>
            Connection lost
          </Text>
          <Text size="sm" c="dimmed" style={{ flex: '1 1 160px' }}>
            {problem.reason}
          </Text>
          <ReconnectButton
            service="shopify"
            label={monitor.target.shop}
            shop={monitor.target.shop}
            monitorId={monitor.monitorId}
            variant="light"
          />
        </Group>
      ) : null}
    </Stack>
  );
}

export function ShopifyTargetHeader({ monitor }: { monitor: MonitorListItem }) {
  if (monitor.service !== 'shopify') return null;
  return (
    <Text size="sm" truncate="end">
      <Anchor href={monitor.target.storefrontUrl} target="_blank" rel="noopener noreferrer" size="sm">
        {monitor.target.shop}
      </Anchor>{' '}
      · {countProducts(monitor.target.products.length)}
    </Text>
  );
}

/** The variants with the price each had when the product was chosen (the price check compares with it). */
function variantPrices(variants: { title: string; price: string }[], currency: string): string {
  if (variants.length === 0) return 'No variants';
  const [only] = variants;
  if (variants.length === 1 && only && only.title === 'Default Title') {
    return `Price when chosen: ${formatMoney(only.price, currency)}`;
  }
  const prices = variants.map((variant) => `${variant.title} ${formatMoney(variant.price, currency)}`);
  return `Prices when chosen: ${prices.join(' · ')}`;
}

/** A lost connection (with Reconnect) and the watched products with their variants and prices. */
export function ShopifyTargetDetail({ monitor }: { monitor: MonitorListItem }) {
  if (monitor.service !== 'shopify') return null;
  const problem = connectionProblem(monitor);
  const { products, currency } = monitor.target;
  return (
    <>
      {problem ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle />} title="Connection lost" role="alert">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">
              {problem.reason} Until the shop is reconnected, this monitor cannot read it and its product
              checks wait.
            </Text>
            <ReconnectButton
              service="shopify"
              label={monitor.target.shop}
              shop={monitor.target.shop}
              monitorId={monitor.monitorId}
              size="sm"
            />
          </Stack>
        </Alert>
      ) : null}
      <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="watched-products">
        <Title order={2} fz="lg" id="watched-products" mb="md">
          Watched products
        </Title>
        {products.length === 0 ? (
          <Text size="sm" c="dimmed">
            No products chosen: this monitor watches the storefront and the connection only. Edit it to choose
            products.
          </Text>
        ) : (
          <Stack component="ul" gap="md" m={0} p={0}>
            {products.map((product) => (
              <Group
                component="li"
                key={product.productId}
                gap="sm"
                wrap="nowrap"
                align="flex-start"
                style={{ listStyle: 'none' }}
              >
                <Thumbnail src={product.imageUrl} />
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Anchor
                    href={`${monitor.target.storefrontUrl.replace(/\/$/, '')}/products/${product.handle}`}
                    target="_blank"
                    rel="noopener noreferrer"
                    fw={600}
                    size="sm"
                  >
                    {product.title}
                  </Anchor>
                  <Text size="sm" c="dimmed">
                    {variantPrices(product.variants, currency)}
                  </Text>
                </Stack>
              </Group>
            ))}
          </Stack>
        )}
      </Card>
    </>
  );
}
