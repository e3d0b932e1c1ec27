import { useState } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../../test/render.tsx';
import {
  aProductsPage,
  aShopifyProduct,
  connectionId,
  failed,
  ok,
} from '../../../../test/monitor-fixtures.ts';
import { getShopifyProducts } from '../../api/get-shopify-products.ts';
import type { ChosenProduct } from './index.ts';
import { ProductPicker } from './product-picker.tsx';

vi.mock('../../api/get-shopify-products.ts', () => ({ getShopifyProducts: vi.fn() }));

// Paging and typing re-render the list in happy-dom; under a full parallel run that can pass 5 s.
vi.setConfig({ testTimeout: 20_000 });

const products = Array.from({ length: 25 }, (_, n) => aShopifyProduct(n + 1));
const firstPage = aProductsPage(products.slice(0, 10), { hasNextPage: true });
const secondPage = aProductsPage(products.slice(10, 20), { hasNextPage: true, hasPreviousPage: true });

/** The picker as the form holds it: the choice lives outside, as `target.products` does. */
function Picker({ initial = [] }: { initial?: ChosenProduct[] }) {
  const [chosen, setChosen] = useState(initial);
  return <ProductPicker listing={{ connectionId: connectionId(1) }} chosen={chosen} onChange={setChosen} />;
}

beforeEach(() => {
  vi.mocked(getShopifyProducts).mockReset();
  vi.mocked(getShopifyProducts).mockImplementation(async (query) => {
    if (query.query) {
      const matching = products.filter((product) => product.title.includes(query.query ?? ''));
      return ok(aProductsPage(matching));
    }
    if (query.cursor === firstPage.pageInfo.endCursor) return ok(secondPage);
    return ok(firstPage);
  });
});

describe('ProductPicker', () => {
  it("lists the shop's products 10 a page with image, price, stock and status", async () => {
    vi.mocked(getShopifyProducts).mockResolvedValue(
      ok(
        aProductsPage(
          [
            aShopifyProduct(1, { priceMin: '39.00', priceMax: '49.5', totalInventory: 0 }),
            aShopifyProduct(2, { status: 'DRAFT', imageUrl: null, totalInventory: null }),
            aShopifyProduct(3, { publishedOnline: false, totalInventory: 1200 }),
          ],
          { hasNextPage: true },
        ),
      ),
    );
    renderWithProviders(<Picker />);
    const first = await screen.findByRole('checkbox', { name: 'Hoodie 1' });
    expect(getShopifyProducts).toHaveBeenCalledWith(
      { connectionId: connectionId(1) },
      expect.any(AbortSignal),
    );
    expect(first).toHaveAccessibleDescription(/\$39\.00–\$49\.50.*Out of stock/);
    expect(screen.getByRole('checkbox', { name: 'Hoodie 2' })).toHaveAccessibleDescription(
      /Stock not tracked.*Draft/,
    );
    expect(screen.getByRole('checkbox', { name: 'Hoodie 3' })).toHaveAccessibleDescription(
      /1,200 in stock.*Not on the online store/,
    );
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });

  it('keeps the choice across pages and lists it as removable chips', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Picker />);
    await user.click(await screen.findByRole('checkbox', { name: 'Hoodie 2' }));
    await user.click(screen.getByRole('checkbox', { name: 'Hoodie 5' }));
    expect(screen.getByText('2 products chosen')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Hoodie 11' }));
    expect(getShopifyProducts).toHaveBeenLastCalledWith(
      { connectionId: connectionId(1), cursor: firstPage.pageInfo.endCursor, direction: 'next' },
      expect.any(AbortSignal),
    );
    expect(screen.getByText('Page 2')).toBeInTheDocument();
    expect(screen.getByText('3 products chosen')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(getShopifyProducts).toHaveBeenLastCalledWith(
      { connectionId: connectionId(1), cursor: secondPage.pageInfo.startCursor, direction: 'previous' },
      expect.any(AbortSignal),
    );
    expect(await screen.findByRole('checkbox', { name: 'Hoodie 2' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Hoodie 5' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Hoodie 1' })).not.toBeChecked();

    const chips = screen.getByRole('list', { name: 'Chosen products' });
    expect(within(chips).getByText('Hoodie 11')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove Hoodie 5' }));
    expect(screen.getByRole('checkbox', { name: 'Hoodie 5' })).not.toBeChecked();
    expect(screen.getByText('2 products chosen')).toBeInTheDocument();
  });

  it('searches by title once typing pauses, from the first page, keeping the choice', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <Picker initial={[{ productId: products[0]!.productId, title: 'Hoodie 1', imageUrl: null }]} />,
    );
    await screen.findByRole('checkbox', { name: 'Hoodie 1' });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('checkbox', { name: 'Hoodie 11' });

    await user.type(screen.getByRole('searchbox', { name: 'Search products' }), 'Hoodie 2');
    expect(await screen.findByRole('checkbox', { name: 'Hoodie 21' })).toBeInTheDocument();
    // One request for the whole word, not one per keystroke, and from the first page.
    const searches = vi.mocked(getShopifyProducts).mock.calls.filter(([query]) => query.query);
    expect(searches).toEqual([
      [{ connectionId: connectionId(1), query: 'Hoodie 2' }, expect.any(AbortSignal)],
    ]);
    expect(screen.getByText('1 product chosen')).toBeInTheDocument();
  });

  it('says when nothing matches, and when the shop has no products', async () => {
    const user = userEvent.setup();
    vi.mocked(getShopifyProducts).mockResolvedValue(ok(aProductsPage([])));
    renderWithProviders(<Picker />);
    expect(
      await screen.findByText(
        'This shop has no products yet. Add them in Shopify, then come back to choose.',
      ),
    ).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search products' }), 'scarf');
    expect(await screen.findByText(/^No products match “scarf”/)).toBeInTheDocument();
  });

  it('offers a retry when the products cannot be loaded', async () => {
    vi.mocked(getShopifyProducts).mockResolvedValueOnce(failed(502, 'Shopify did not answer.'));
    const user = userEvent.setup();
    renderWithProviders(<Picker />);
    expect(await screen.findByText('The shop’s products could not be loaded')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('checkbox', { name: 'Hoodie 1' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });
});
