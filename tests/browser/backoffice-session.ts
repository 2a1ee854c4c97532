import { expect, type Browser, type Page } from '@playwright/test';

/** Where a back office floor (tests/browser/backoffice-*floor.ts) serves its page, and its users' password. */
export interface FloorAt {
  url: string;
  password: string;
}

/** Signs `name` in on the page's sign-in form, as a person does, and waits for the page to name them. */
export async function signIn(page: Page, at: FloorAt, name: string): Promise<void> {
  await page.goto(at.url);
  await page.locator('input[name=name]').fill(name);
  await page.locator('input[name=password]').fill(at.password);
  await page.locator('form.sign-in button[type=submit]').click();
  await expect(page.getByTestId('who')).toContainText(name);
}

/** A second person, the administrator in a browser context of their own, approves request `id` on table `table`'s page. */
export async function approveAsAdministrator(browser: Browser, at: FloorAt, table: string, id: string | null): Promise<void> {
  const second = await browser.newContext();
  try {
    const admin = await second.newPage();
    await signIn(admin, at, 'administrator');
    await admin.goto(`${at.url}#/table/${table}`);
    await admin.getByTestId(`config-approve-${id}`).click();
    await expect(admin.locator(`[data-request="${id}"]`)).toHaveAttribute('data-state', 'approved');
  } finally {
    await second.close();
  }
}
