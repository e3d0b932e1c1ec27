import { useState } from 'react';
import { Badge, Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SHOPIFY_MAX_PRODUCTS, type ShopifyProduct } from '@vigil/contracts';
import { IconChevronLeft, IconChevronRight } from '../../../../components/icons.tsx';
import { useRequest } from '../../../../lib/use-request.ts';
import { getShopifyProducts } from '../../api/get-shopify-products.ts';
import {
  CheckboxCard,
  ChosenChips,
  EmptyListNote,
  ItemName,
  ListLoadFailed,
  ListSkeleton,
  SearchField,
} from '../../components/picker-parts.tsx';
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
    <CheckboxCard
      checked={checked}
      disabled={full && !checked}
      onToggle={onToggle}
      styles={{ body: { alignItems: 'center' }, labelWrapper: { minWidth: 0, flex: 1 } }}
      label={
        <Group gap="sm" wrap="nowrap" component="span">
          <Thumbnail src={product.imageUrl} />
          <ItemName>{product.title}</ItemName>
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
    list = <ListLoadFailed title="The shop’s products could not be loaded" onRetry={products.reload} />;
  } else if (!data) {
    list = <ListSkeleton rows={4} height={72} />;
  } else if (data.list.length === 0) {
    list = (
      <EmptyListNote>
        {query
          ? `No products match “${query}”. Try another word from a product’s title.`
          : 'This shop has no products yet. Add them in Shopify, then come back to choose.'}
      </EmptyListNote>
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
      <ChosenChips
        summary={chosen.length === 0 ? 'No products chosen yet' : `${countProducts(chosen.length)} chosen`}
        label="Chosen products"
        chips={chosen.map((product) => ({
          key: product.productId,
          text: product.title,
          removeLabel: `Remove ${product.title}`,
          onRemove: () => onChange(chosen.filter((entry) => entry.productId !== product.productId)),
        }))}
        limitNote={
          full
            ? `A monitor watches at most ${SHOPIFY_MAX_PRODUCTS} products; remove one to choose another.`
            : null
        }
        error={error}
      />

      <SearchField
        label="Search products"
        placeholder="A word from the title"
        value={search}
        onChange={setSearch}
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
