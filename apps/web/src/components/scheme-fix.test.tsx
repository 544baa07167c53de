import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '@/test/render';
import { SchemeFix, withHttps } from './scheme-fix';

/* A URL typed without its scheme is offered https:// in one click (issue 24). */

describe('withHttps', () => {
  it.each([
    ['api.shop.test/orders', 'https://api.shop.test/orders'],
    ['  shop.test  ', 'https://shop.test'],
    ['localhost:8080/health', 'https://localhost:8080/health'],
    ['localhost/x', 'https://localhost/x'],
    ['127.0.0.1:9/users?id=1', 'https://127.0.0.1:9/users?id=1'],
  ])('offers %s as %s', (typed, fixed) => {
    expect(withHttps(typed)).toBe(fixed);
  });

  it.each([
    '',
    'https://shop.test',
    'http://shop.test',
    'ftp://x.test',
    '{{base}}/orders',
    'orders',
    'a b.test',
  ])('offers nothing for %j', (typed) => {
    expect(withHttps(typed)).toBeNull();
  });
});

function Field({ initial }: { initial: string }) {
  const [url, setUrl] = useState(initial);
  return (
    <>
      <output data-testid="value">{url}</output>
      <SchemeFix url={url} onFix={setUrl} data-testid="fix" />
    </>
  );
}

describe('SchemeFix', () => {
  it('puts https:// in front in one click, then goes away', async () => {
    const user = userEvent.setup();
    renderWithRouter(<Field initial="api.shop.test/orders" />);
    expect(screen.getByText('This URL has no http:// or https://.')).toBeInTheDocument();
    await user.click(screen.getByTestId('fix'));
    expect(screen.getByTestId('value')).toHaveTextContent('https://api.shop.test/orders');
    expect(screen.queryByTestId('fix')).not.toBeInTheDocument();
  });

  it('says it in Korean', () => {
    renderWithRouter(<Field initial="shop.test" />, { language: 'ko' });
    expect(screen.getByTestId('fix')).toHaveTextContent('https://shop.test 사용');
  });
});
