import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hasBrowser, sharedBrowser, signedInContext } from '../helpers/browser';
import { startApp, type RunningApp } from '../helpers/e2e-app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { CHAT_ASK_TIMEOUT_MS, CHAT_STREAM_IDLE_MS } from '../../src/ai/shared';
import { startFakeOpenAI } from '../ai/fake-openai';
import { seedInventory } from '../ai/seed';

let app: RunningApp;
let browser: Browser;
let user: TestUser;
let seed: Awaited<ReturnType<typeof seedInventory>>;

async function signedInPage(
  target: RunningApp = app,
  who: TestUser = user,
): Promise<{ context: BrowserContext; page: Page; problems: string[]; scripts: string[] }> {
  const context = await signedInContext(browser, target.url, who.cookie, { viewport: { width: 1400, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: target.url });
  const page = await context.newPage();
  page.setDefaultTimeout(8000);
  const problems: string[] = [];
  const scripts: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  return { context, page, problems, scripts };
}

/** Records how the assistant bubble's text grows while the answer streams in. */
/** Records the last answer's length and, while the streaming notice shows, whether the input is disabled. */
async function watchLastBubble(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { lengths: number[]; disabledWhileStreaming: boolean[] };
    w.lengths = [];
    w.disabledWhileStreaming = [];
    const log = document.querySelector('[role="log"]')!;
    const box = log.closest('[role="dialog"], .content') ?? document.body;
    new MutationObserver(() => {
      const bubbles = log.querySelectorAll('.bubble--assistant');
      w.lengths.push(bubbles[bubbles.length - 1]?.textContent?.length ?? 0);
      if (box.textContent?.includes('Streaming response in real-time...')) {
        w.disabledWhileStreaming.push(box.querySelector('textarea')?.disabled ?? false);
      }
    }).observe(box, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

describe.skipIf(!hasBrowser)('Ops AI in Chromium', () => {
  beforeAll(async () => {
    app = await startApp();
    browser = await sharedBrowser();
    user = await createSignedInUser(app.db, { firstName: 'Ada', lastName: 'Ops' });
    seed = await seedInventory(app.db, user.id);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('floating panel: plain button until clicked, then ask, watch it stream, follow an in-app link', async () => {
    const { context, page, problems, scripts } = await signedInPage();
    await page.goto(`${app.url}/team`);
    expect(scripts.some((s) => s.includes('OpsChat'))).toBe(false);
    await page.getByRole('link', { name: 'Open AI Assistant' }).click();
    const panel = page.getByRole('dialog', { name: 'AI Assistant' });
    await panel.waitFor();
    expect(page.url()).toBe(`${app.url}/team`);
    await expect(panel.getByText('0 messages').isVisible()).resolves.toBe(true);
    await expect(
      panel
        .getByText("Welcome to Ops AI! I'm your intelligent infrastructure assistant. How can I help you today?")
        .isVisible(),
    ).resolves.toBe(true);
    expect(await panel.locator('.chat__actions button').allTextContents()).toEqual([
      'Show all servers',
      'View recent documentation',
      'Check server status',
      'Browse knowledge base',
    ]);

    const input = panel.getByPlaceholder('Ask about servers, documentation, or infrastructure...');
    await input.fill('Show me all servers in Auburn location');
    await input.press('Shift+Enter'); // does not send
    await expect(panel.getByText('0 messages').isVisible()).resolves.toBe(true);
    await watchLastBubble(page);
    await input.press('Enter');
    const link = panel.getByRole('link', { name: 'AUB-POS-01' });
    await link.waitFor();
    await panel.getByText('Streaming response in real-time...').waitFor({ state: 'detached' });
    const { lengths, disabledWhileStreaming } = await page.evaluate(() => {
      const w = window as unknown as { lengths: number[]; disabledWhileStreaming: boolean[] };
      return { lengths: w.lengths, disabledWhileStreaming: w.disabledWhileStreaming };
    });
    expect(new Set(lengths.filter((n) => n > 0)).size).toBeGreaterThan(3); // it grew in steps
    // The stream can end before a separate check runs, so the page noted the input's state as it streamed.
    expect(disabledWhileStreaming.length).toBeGreaterThan(0);
    expect(disabledWhileStreaming.every(Boolean)).toBe(true);
    await expect(panel.getByText('2 messages').isVisible()).resolves.toBe(true);
    await expect(link.getAttribute('target')).resolves.toBeNull();

    await link.click();
    await page.waitForURL(`${app.url}/infrastructure?server=${seed.servers['AUB-POS-01']}`);

    // A navigate action goes to its route (the panel closes); the panel's history was kept.
    await page.goto(`${app.url}/team`);
    await page.getByRole('link', { name: 'Open AI Assistant' }).click();
    await panel.getByText('2 messages').waitFor();
    await panel.getByRole('button', { name: 'Show all servers' }).first().click();
    await page.waitForURL(`${app.url}/infrastructure`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('/ai page: suggested query action auto-sends, copy buttons, history survives reload, Clear Chat', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/ai`);
    await page.locator('app-island[data-name="OpsChat"][data-hydrated]').first().waitFor();
    const chat = page.locator('.content');
    expect(await chat.locator('.chat__actions button').allTextContents()).toEqual([
      'Show all servers',
      'View recent documentation',
      'Check server status',
      'Browse knowledge base',
      'List all server IPs',
      'View infrastructure overview',
    ]);
    await chat.getByRole('button', { name: 'Check server status' }).click();
    await chat.getByText('Show me the status of all active servers').waitFor(); // the user bubble
    await chat.getByText('Active servers (online or warning)').waitFor();
    await chat.getByText('Streaming response in real-time...').waitFor({ state: 'detached' });
    await expect(chat.getByText('2 messages').isVisible()).resolves.toBe(true);

    // Message copy: "Copied" for 2 seconds and a toast.
    await chat.getByRole('button', { name: 'Copy message' }).last().click();
    await chat.getByRole('button', { name: 'Copied' }).waitFor();
    await page.getByText('Message copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('Active servers');
    await chat.getByRole('button', { name: 'Copied' }).waitFor({ state: 'detached', timeout: 3000 });

    // Ask for IPs from the input with Enter; the answer table has in-app links.
    const input = chat.getByPlaceholder('Ask me anything about your infrastructure...');
    await input.fill('List all servers with their IP addresses');
    await input.press('Enter');
    await chat.getByRole('cell', { name: '127.30.0.31' }).waitFor();
    await chat.getByText('Streaming response in real-time...').waitFor({ state: 'detached' });

    await page.reload();
    await chat.getByRole('cell', { name: '127.30.0.31' }).waitFor();
    await expect(chat.getByText('4 messages').isVisible()).resolves.toBe(true);

    await chat.getByRole('button', { name: 'Clear Chat' }).click();
    await page.getByText('Conversation cleared').waitFor();
    await expect(chat.getByText('0 messages').isVisible()).resolves.toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('ai-chat-messages'))).toBeNull();

    // Unreadable saved history shows the welcome message.
    await page.evaluate(() => sessionStorage.setItem('ai-chat-messages', '{not json'));
    await page.reload();
    await page.locator('app-island[data-name="OpsChat"][data-hydrated]').first().waitFor();
    await expect(chat.getByText('0 messages').isVisible()).resolves.toBe(true);
    await expect(chat.getByText('Welcome to Ops AI!', { exact: false }).isVisible()).resolves.toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('falls back to the standard call when streaming fails, and unsafe links are blanked', async () => {
    const { context, page } = await signedInPage();
    await page.route('**/api/ai/ask-stream', (route) => route.fulfill({ status: 502, body: 'bad gateway' }));
    let answer!: () => void;
    const thinkingSeen = new Promise<void>((r) => (answer = r));
    await page.route('**/api/ai/ask', async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      body.response +=
        '\n\n[evil](javascript:alert(1)) and [docs](https://example.com/x)\n\n```bash\necho hello-ops\n```';
      await thinkingSeen; // held until the test has seen the pending state, instead of for a fixed 400 ms
      await route.fulfill({ response: res, json: body });
    });
    await page.goto(`${app.url}/ai`);
    await page.locator('app-island[data-name="OpsChat"][data-hydrated]').first().waitFor();
    const chat = page.locator('.content');
    await chat
      .getByPlaceholder('Ask me anything about your infrastructure...')
      .fill('Who are the support team contacts?');
    await chat.getByRole('button', { name: 'Send' }).click();
    await chat.locator('.badge', { hasText: 'Thinking...' }).waitFor(); // the standard call is pending
    answer();
    await chat.getByText('Alice Nguyen').waitFor();
    await chat.getByRole('button', { name: 'Copy code' }).click();
    await page.getByText('Code copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('echo hello-ops');
    await expect(chat.getByText('evil').getAttribute('href')).resolves.toBeNull();
    await expect(chat.getByRole('link', { name: 'docs' }).getAttribute('target')).resolves.toBe('_blank');
    await expect(chat.getByRole('link', { name: 'alice@example.com' }).getAttribute('href')).resolves.toBe(
      'mailto:alice@example.com',
    );

    await page.unroute('**/api/ai/ask');
    await page.route('**/api/ai/ask', (route) => route.fulfill({ status: 500, body: '{"message":"boom"}' }));
    await chat.getByPlaceholder('Ask me anything about your infrastructure...').fill('anything');
    await chat.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Failed to get AI response. Please try again.').waitFor();
    await context.close();
  });

  it('a stalled model: the chat gives up by itself, shows the error toast and the input works again', async () => {
    const fake = await startFakeOpenAI();
    fake.mode = 'keep-alive-after-chunk'; // one chunk, then only keep-alive comments
    const stalled = await startApp({
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: fake.url,
      OPENAI_MODEL: 'fake-model',
    });
    const { context, page } = await signedInPage(stalled, await createSignedInUser(stalled.db));
    try {
      await page.clock.install(); // the browser's deadlines are production-size: the test moves its clock
      await page.goto(`${stalled.url}/ai`);
      await page.locator('app-island[data-name="OpsChat"][data-hydrated]').first().waitFor();
      const chat = page.locator('.content');
      const input = chat.getByPlaceholder('Ask me anything about your infrastructure...');
      await input.fill('Which servers are in Auburn?');
      await input.press('Enter');
      await chat.getByText('Let me check').waitFor(); // the one streamed chunk
      await expect(input.isDisabled()).resolves.toBe(true);

      await page.clock.fastForward(CHAT_STREAM_IDLE_MS); // the stream went silent: drop it, ask without streaming
      await chat.locator('.badge', { hasText: 'Thinking...' }).waitFor();
      await expect.poll(() => fake.requests.length).toBe(2);
      await page.clock.fastForward(CHAT_ASK_TIMEOUT_MS);
      await page.getByText('Failed to get AI response. Please try again.').waitFor();
      await expect(input.isEnabled()).resolves.toBe(true);
      await input.fill('a new question');
      await expect(input.inputValue()).resolves.toBe('a new question');
      await expect(chat.getByRole('button', { name: 'Send' }).isEnabled()).resolves.toBe(true);
      // The server saw the browser leave and hung up on the model both times.
      await expect.poll(() => fake.requests.map((r) => r.closed)).toEqual([true, true]);
    } finally {
      await context.close();
      await fake.close();
      await stalled.stop();
    }
  });

  it('Auto Create KB: messy text → preview → saved and opened in the editor', async () => {
    const { context, page, problems } = await signedInPage();
    await page.goto(`${app.url}/knowledge-base`);
    await page.getByRole('heading', { name: 'Auto Create KB' }).waitFor();
    await page.getByRole('link', { name: 'Get Started' }).click();
    const text = page.getByLabel('Content');
    await text.waitFor();
    const generate = page.getByRole('button', { name: 'Generate Preview' });
    await expect(generate.isDisabled()).resolves.toBe(true);
    const messy =
      'reset citrix storefront cache\nusers cannot launch apps from storefront after the upgrade.\nfirst log on to the storefront server\nthen run\nRestart-Service CitrixClusterService\nfinally ask users to refresh the workspace app';
    await text.fill(messy);
    await page.getByText(`${messy.length} / 5000 characters`).waitFor();
    await generate.click();
    await page.getByText('Your knowledge base preview is ready for review.').waitFor();
    await page.getByRole('heading', { name: 'Reset Citrix Storefront Cache' }).waitFor();
    await expect(page.locator('.auto-create .badge', { hasText: 'Citrix' }).isVisible()).resolves.toBe(true);
    await expect(
      page.locator('.auto-create code', { hasText: 'Restart-Service CitrixClusterService' }).isVisible(),
    ).resolves.toBe(true);

    await page.getByRole('button', { name: 'Back to Edit' }).click();
    await expect(text.inputValue()).resolves.toBe(messy);
    await generate.click();
    await page.getByRole('button', { name: 'Save Document' }).click();
    await page.waitForURL(/\/knowledge-base\/[0-9a-f-]{36}\/edit$/);
    const id = page.url().split('/').at(-2)!;
    const created = await app.app.request(`/api/knowledge-base/${id}`, { headers: { Cookie: user.cookie } });
    if (created.status === 200) expect((await created.json()).title).toBe('Reset Citrix Storefront Cache');
    expect(problems.filter((p) => !/404|Failed to load resource/.test(p))).toEqual([]);
    await context.close();
  });
});
