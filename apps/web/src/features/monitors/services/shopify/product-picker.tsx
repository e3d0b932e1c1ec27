import { useState } from 'react';
import {
  Badge,
  Button,
  Checkbox,
  Group,
  Paper,
  Pill,
  Skeleton,
  Stack,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SHOPIFY_MAX_PRODUCTS, type ShopifyProduct } from '@vigil/contracts';
import { IconChevronLeft, IconChevronRight, IconSearch } from '../../../../components/icons.tsx';
import { ErrorState } from '../../../../components/page-states.tsx';
import { useRequest } from '../../../../lib/use-request.ts';
import { getShopifyProducts } from '../../api/get-shopify-products.ts';
import type { ChosenProduct } from './index.ts';
import { countProducts, formatPriceRange, formatStock, productStatusBadges } from './shopify-format.ts';
import { Thumbnail } from './thumbnail.tsx';

/** How long typing pauses before the search runs. */
export const PRODUCT_SEARCH_DEBOUNCE_MS = 300;

/** The shop whose products to list: the edited monitor's (the spec's `monitorId`) or a connection chosen. */
export type ProductListing = { monitorId: string } | { connectionId: string };

interface Page {
  /** The search this page belongs to; another search starts again from the first page. */
  query: string;
  cursor?: string;
  direction: 'next' | 'previous';
  number: number;
}

const FIRST_PAGE = { cursor: undefined, direction: 'next', number: 1 } as const;

function ProductRow({
  product,
  checked,
  full,
  onToggle,
}: {
  product: ShopifyProduct;
  checked: boolean;
  full: boolean;
  onToggle: (on: boolean) => void;
}) {
  const badges = productStatusBadges(product);
  return (
    <Paper component="li" withBorder radius="md" p="sm" style={{ listStyle: 'none' }}>
      <Checkbox
        checked={checked}
        disabled={full && !checked}
        onChange={(event) => onToggle(event.currentTarget.checked)}
        styles={{ body: { alignItems: 'center' }, labelWrapper: { minWidth: 0, flex: 1 } }}
        label={
          <Group gap="sm" wrap="nowrap" component="span">
            <Thumbnail src={product.imageUrl} />
            <Text span fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {product.title}
            </Text>
          </Group>
        }
        description={
          <Group gap={6} component="span" mt={4} ml={{ base: 0, xs: 60 }}>
            <span>{formatPriceRange(product.priceMin, product.priceMax, product.currency)}</span>
            <span aria-hidden="true">·</span>
            <span>{formatStock(product.totalInventory)}</span>
            {badges.map((badge) => (
              <Badge
                key={badge}
                component="span"
                size="sm"
                variant="light"
                color={badge === 'Archived' ? 'gray' : 'yellow'}
              >
                {badge}
              </Badge>
            ))}
          </Group>
        }
      />
    </Paper>
  );
}

/**
 * The shop's products, 10 a page by cursor, searchable by title, each with a checkbox. The choice is the
 * form's (`chosen`), so it stays across pages and searches, and shows as removable chips.
 */
export function ProductPicker({
  listing,
  chosen,
  onChange,
  error,
}: {
  listing: ProductListing;
  chosen: ChosenProduct[];
  onChange: (chosen: ChosenProduct[]) => void;
  error?: string | undefined;
}) {
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), PRODUCT_SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState<Page>({ query: '', ...FIRST_PAGE });
  const current = page.query === query ? page : { query, ...FIRST_PAGE };

  const request = {
    ...listing,
    ...(current.cursor ? { cursor: current.cursor, direction: current.direction } : {}),
    ...(query ? { query } : {}),
  };
  const products = useRequest(`shopify-products:${JSON.stringify(request)}`, (signal) =>
    getShopifyProducts(request, signal),
  );

  const chosenIds = new Set(chosen.map((product) => product.productId));
  const full = chosen.length >= SHOPIFY_MAX_PRODUCTS;
  const data = products.data;
  const loading = products.status === 'loading';

  function toggle(product: ShopifyProduct, on: boolean) {
    onChange(
      on
        ? [...chosen, { productId: product.productId, title: product.title, imageUrl: product.imageUrl }]
        : chosen.filter((entry) => entry.productId !== product.productId),
    );
  }

  function go(direction: 'next' | 'previous') {
    if (!data) return;
    const cursor = direction === 'next' ? data.pageInfo.endCursor : data.pageInfo.startCursor;
    if (!cursor) return;
    setPage({ query, cursor, direction, number: current.number + (direction === 'next' ? 1 : -1) });
  }

  let list;
  if (!data && products.status === 'failed') {
    list = (
      <ErrorState title="The shop’s products could not be loaded" onRetry={products.reload}>
        Check your connection and try again.
      </ErrorState>
    );
  } else if (!data) {
    list = (
      <Stack gap="xs" aria-hidden="true">
        {Array.from({ length: 4 }, (_, n) => (
          <Skeleton key={n} h={72} radius="md" />
        ))}
      </Stack>
    );
  } else if (data.list.length === 0) {
    list = (
      <Paper withBorder radius="md" p="lg">
        <Text size="sm" ta="center">
          {query
            ? `No products match “${query}”. Try another word from a product’s title.`
            : 'This shop has no products yet. Add them in Shopify, then come back to choose.'}
        </Text>
      </Paper>
    );
  } else {
    list = (
      <Stack
        component="ul"
        gap="xs"
        m={0}
        p={0}
        aria-label="Products of the shop"
        style={{ opacity: loading ? 0.6 : 1 }}
      >
        {data.list.map((product) => (
          <ProductRow
            key={product.productId}
            product={product}
            checked={chosenIds.has(product.productId)}
            full={full}
            onToggle={(on) => toggle(product, on)}
          />
        ))}
      </Stack>
    );
  }

  const pageInfo = data?.pageInfo;
  return (
    <Stack gap="sm">
      <Stack gap={6}>
        <Text size="sm" fw={600} aria-live="polite">
          {chosen.length === 0 ? 'No products chosen yet' : `${countProducts(chosen.length)} chosen`}
        </Text>
        {chosen.length > 0 ? (
          <Pill.Group role="list" aria-label="Chosen products">
            {chosen.map((product) => (
              <Pill
                key={product.productId}
                role="listitem"
                withRemoveButton
                onRemove={() => onChange(chosen.filter((entry) => entry.productId !== product.productId))}
                // Mantine hides the remove button from keyboards and screen readers (made for PillsInput,
                // where Backspace removes); here it is the only way to remove, so it is a real button.
                removeButtonProps={{
                  'aria-label': `Remove ${product.title}`,
                  'aria-hidden': false,
                  tabIndex: 0,
                }}
              >
                {product.title}
              </Pill>
            ))}
          </Pill.Group>
        ) : null}
        {full ? (
          <Text size="xs" c="dimmed">
            A monitor watches at most {SHOPIFY_MAX_PRODUCTS} products; remove one to choose another.
          </Text>
        ) : null}
        {error ? (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        ) : null}
      </Stack>

      <TextInput
        label="Search products"
        placeholder="A word from the title"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        onKeyDown={(event) => {
          // Enter searches at once instead of submitting the monitor form.
          if (event.key === 'Enter') event.preventDefault();
        }}
        maxLength={100}
        type="search"
      />

      <VisuallyHidden role="status" aria-live="polite">
        {loading
          ? 'Loading products…'
          : data
            ? `Page ${current.number}: ${countProducts(data.list.length)}${query ? ` matching “${query}”` : ''}.`
            : ''}
      </VisuallyHidden>

      {list}

      {pageInfo && (pageInfo.hasPreviousPage || pageInfo.hasNextPage) ? (
        <Group justify="space-between" gap="sm">
          <Button
            variant="default"
            size="xs"
            leftSection={<IconChevronLeft size={14} />}
            disabled={!pageInfo.hasPreviousPage || loading}
            onClick={() => go('previous')}
          >
            Previous
          </Button>
          <Text size="sm" c="dimmed">
            Page {current.number}
          </Text>
          <Button
            variant="default"
            size="xs"
            rightSection={<IconChevronRight size={14} />}
            disabled={!pageInfo.hasNextPage || loading}
            onClick={() => go('next')}
          >
            Next
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
