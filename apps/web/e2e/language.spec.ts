import type { Browser, BrowserContext, Page } from '@playwright/test';
import { countStagingJobs, seedAgentWithListing, seedOriginalPhoto, type E2eData } from '@staging/stack/e2e-fixtures';
import { DEVICES, expect, saveScreenshot, signInQuickly, stack, test, type Credentials } from './support/fixtures';
import type { Device } from './support/fixtures';

// Which language a page is in (docs/decisions/web.md "Which language a page is in"): a choice made in
// this browser, else the signed-in account's, else the browser's Accept-Language.

type Language = 'en' | 'es';

const OTHER: Record<Language, Language> = { en: 'es', es: 'en' };
const WORDS = {
  en: { autonym: 'English', signInTitle: 'Sign in', email: 'Email', password: 'Password', submit: 'Sign in', properties: 'Your properties', signOut: 'Sign out' },
  es: { autonym: 'Español', signInTitle: 'Iniciar sesión', email: 'Correo electrónico', password: 'Contraseña', submit: 'Entrar', properties: 'Sus inmuebles', signOut: 'Cerrar sesión' },
} as const;

// What the dashboard's own forms say where the browser would otherwise speak for them.
const FORM_WORDS = {
  en: {
    stage: 'Stage selected photos',
    roomMissing: 'Choose the room type of hall.jpg: staging furnishes the photo as that room.',
    addUnit: 'Add a unit',
    unitName: 'Unit name',
    required: 'Required.',
    unitNumber: 'Unit number',
    csvFile: 'CSV file',
    chooseCsv: 'Choose a CSV file…',
    noFile: 'No file chosen',
  },
  es: {
    stage: 'Amueblar las fotos elegidas',
    roomMissing: 'Elija el tipo de habitación de hall.jpg: el amueblado decora la foto como esa habitación.',
    addUnit: 'Añadir una unidad',
    unitName: 'Nombre de la unidad',
    required: 'Obligatorio.',
    unitNumber: 'Número de unidad',
    csvFile: 'Archivo CSV',
    chooseCsv: 'Elegir un archivo CSV…',
    noFile: 'Ningún archivo elegido',
  },
} as const;

let clients = 0;

/**
 * A fresh browser whose Accept-Language is `language`. Each comes from an address of its own
 * (TEST-NET-3, through the trusted proxy hop), as different people would: the per-address login
 * limit is not what this file tests.
 */
async function freshBrowser(browser: Browser, device: Device, language: Language): Promise<{ context: BrowserContext; page: Page }> {
  clients += 1;
  const context = await browser.newContext({
    ...DEVICES[device],
    baseURL: stack.webUrl,
    locale: language === 'en' ? 'en-US' : 'es-ES',
    extraHTTPHeaders: { 'x-forwarded-for': `203.0.113.${clients % 250}` },
  });
  return { context, page: await context.newPage() };
}

async function expectLanguage(page: Page, language: Language, heading: string): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
}

/** The sign-in form, filled and sent as a person would, in whatever language it shows. */
async function signInWithForm(page: Page, agent: Credentials, language: Language): Promise<void> {
  const words = WORDS[language];
  if (!page.url().includes('/sign-in')) await page.goto('/sign-in');
  await page.getByLabel(words.email).fill(agent.email);
  await page.getByLabel(words.password).fill(agent.password);
  await page.getByRole('button', { name: words.submit, exact: true }).click();
  await expect(page).toHaveURL(/\/properties$/);
}

/**
 * On a phone the header's buttons sit behind the Menu button. `inPlace` presses it where it is,
 * without scrolling up to it first. Pressed until open: a press before the page's script runs is
 * lost.
 */
async function openMenuIfFolded(page: Page, options: { inPlace?: boolean } = {}): Promise<void> {
  const toggle = page.locator('.nav-toggle');
  if (!(await toggle.isVisible())) return;
  await expect(async () => {
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await (options.inPlace ? toggle.dispatchEvent('click') : toggle.click());
    await expect(toggle).toHaveAttribute('aria-expanded', 'true', { timeout: 1_000 });
  }).toPass();
}

/**
 * Presses the header's button for `language` where it is, without scrolling to it first (as a
 * screen reader's activation, or a header kept in view, would).
 */
async function switchInPlace(page: Page, language: Language): Promise<void> {
  await openMenuIfFolded(page, { inPlace: true });
  await page.getByTestId('locale-switcher').getByRole('button', { name: WORDS[language].autonym }).dispatchEvent('click');
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

async function signOut(page: Page, language: Language): Promise<void> {
  await openMenuIfFolded(page);
  await page.getByRole('button', { name: WORDS[language].signOut, exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
}

async function accountLocale(data: E2eData, id: string): Promise<string | null> {
  return (await data.db.user.findUniqueOrThrow({ where: { id }, select: { locale: true } })).locale;
}

for (const device of Object.keys(DEVICES) as Device[]) {
  for (const browserLanguage of ['en', 'es'] as const) {
    const chosen = OTHER[browserLanguage];

    test(`${device}, browser in ${browserLanguage}: a choice stays chosen across sign-in and sign-out, and the account's applies where none was made`, async ({ browser, data }) => {
      const listing = await seedAgentWithListing(data);
      const { agent } = listing;
      // Photos make the property page long enough to scroll well past any change of text length.
      for (const displayOrder of [0, 1, 2, 3, 4, 5]) await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'BEDROOM', displayOrder });
      // The account already has a language: the browser's own.
      await data.db.user.update({ where: { id: agent.id }, data: { locale: browserLanguage } });

      // 1. A choice on the sign-in page switches in place (what was typed stays) and survives
      //    signing in, over the account's language, which it replaces.
      const first = await freshBrowser(browser, device, browserLanguage);
      let page = first.page;
      await page.goto('/sign-in');
      await expectLanguage(page, browserLanguage, WORDS[browserLanguage].signInTitle);
      await page.getByLabel(WORDS[browserLanguage].email).fill(agent.email);
      await page.getByTestId('locale-switcher').getByRole('button', { name: WORDS[chosen].autonym }).click();
      await expectLanguage(page, chosen, WORDS[chosen].signInTitle);
      await expect(page.getByLabel(WORDS[chosen].email)).toHaveValue(agent.email);
      await expect(page.getByTestId('locale-switcher').getByRole('button', { name: WORDS[chosen].autonym })).toHaveAttribute('aria-pressed', 'true');
      await saveScreenshot(page, `language-${device}-${browserLanguage}-sign-in-switched`);
      await signInWithForm(page, agent, chosen);
      await expectLanguage(page, chosen, WORDS[chosen].properties);
      expect(await accountLocale(data, agent.id)).toBe(chosen);

      // 2. Signing out keeps the choice made in this browser.
      await signOut(page, chosen);
      await expectLanguage(page, chosen, WORDS[chosen].signInTitle);
      await first.context.close();

      // 3. A fresh browser with no choice of its own follows the account once signed in, and its
      //    own Accept-Language again once signed out.
      const second = await freshBrowser(browser, device, browserLanguage);
      page = second.page;
      await page.goto('/sign-in');
      await expectLanguage(page, browserLanguage, WORDS[browserLanguage].signInTitle);
      await signInWithForm(page, agent, browserLanguage);
      await expectLanguage(page, chosen, WORDS[chosen].properties);
      await signOut(page, chosen);
      await expectLanguage(page, browserLanguage, WORDS[browserLanguage].signInTitle);

      // 4. A choice while signed in keeps the place on the page and goes to the account.
      await signInWithForm(page, agent, browserLanguage);
      await page.goto(`/properties/${listing.propertyId}`);
      await expect(page.locator('html')).toHaveAttribute('lang', chosen);
      await expect(page.getByTestId('original-card')).toHaveCount(6);
      // Far down the page: the fourth photo at the top of the window.
      const fourthPhoto = page.getByTestId('original-card').nth(3);
      const topOfFourthPhoto = () => fourthPhoto.evaluate((card) => Math.round(card.getBoundingClientRect().top));
      await fourthPhoto.evaluate((card) => card.scrollIntoView({ block: 'start' }));
      const before = await topOfFourthPhoto();
      expect(await page.evaluate(() => window.scrollY), 'the page is long enough to scroll').toBeGreaterThan(300);
      await switchInPlace(page, browserLanguage);
      await expect(page.getByTestId('photo-drop-zone')).toContainText(browserLanguage === 'es' ? 'Suelte las fotos aquí' : 'Drop photos here');
      // The same photo where it was (texts above it change length; the browser keeps what is in
      // view in place), not the top of the page.
      expect(Math.abs((await topOfFourthPhoto()) - before)).toBeLessThanOrEqual(30);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
      await saveScreenshot(page, `language-${device}-${browserLanguage}-property-switched-in-place`, { fullPage: false });
      await expect.poll(() => accountLocale(data, agent.id)).toBe(browserLanguage);
      await second.context.close();

      // 5. ...and a fresh browser in the other language follows that account choice at sign-in.
      const third = await freshBrowser(browser, device, chosen);
      page = third.page;
      await page.goto('/sign-in');
      await expectLanguage(page, chosen, WORDS[chosen].signInTitle);
      await signInWithForm(page, agent, chosen);
      await expectLanguage(page, browserLanguage, WORDS[browserLanguage].properties);
      await third.context.close();
    });
  }

  for (const language of ['en', 'es'] as const) {
    test(`${device}, ${language}: an upload the api refuses says why in the UI language, with sizes and plurals of that language`, async ({ browser, data }) => {
      const { agent, propertyId } = await seedAgentWithListing(data);
      const { context, page } = await freshBrowser(browser, device, language);
      await signInQuickly(page, agent);
      await page.goto(`/properties/${propertyId}`);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      // Named and typed as a JPEG, so only the api, which decodes it, can tell it is not one.
      const notAnImage = { name: 'kitchen.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(1.5 * 1024 * 1024, 'not a photo ') };
      const heic = { name: 'IMG_0001.HEIC', mimeType: 'image/heic', buffer: Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1'), Buffer.alloc(256)]) };
      await page.getByTestId('photo-drop-zone').locator('input[type="file"]').setInputFiles([notAnImage, heic]);
      await expect(page.getByTestId('upload-summary')).toHaveText(
        language === 'es' ? '1 foto lista para subir, 1 no admitida.' : '1 photo ready to upload, 1 not accepted.',
      );
      const row = page.locator('[data-testid="upload-item"][data-name="kitchen.jpg"]');
      await expect(row).toContainText(language === 'es' ? '1,5 MB' : '1.5 MB');
      await page.getByRole('button', { name: language === 'es' ? 'Subir 1 foto' : 'Upload 1 photo' }).click();
      await expect(row).toHaveAttribute('data-state', 'failed');
      await expect(row).toContainText(
        language === 'es'
          ? 'El archivo no es una imagen JPEG, PNG o WebP completa. Compruebe que se abre, o guárdela de nuevo como JPEG.'
          : 'The file is not a complete JPEG, PNG or WebP image. Check that it opens, or save it again as JPEG.',
      );
      await expect(row).not.toContainText('File must be a complete');
      await row.scrollIntoViewIfNeeded();
      await saveScreenshot(page, `language-${device}-${language}-upload-refused`, { fullPage: false });

      // Switching language rewords what is already on the page, the refusal included.
      await switchInPlace(page, OTHER[language]);
      await expect(row).toContainText(OTHER[language] === 'es' ? 'El archivo no es una imagen JPEG' : 'The file is not a complete JPEG');
      await expect(row).toContainText(OTHER[language] === 'es' ? '1,5 MB' : '1.5 MB');
      await context.close();
    });
  }
}

for (const device of Object.keys(DEVICES) as Device[]) {
  for (const language of ['en', 'es'] as const) {
    test(`${device}, page in ${language}, browser in ${OTHER[language]}: what a form refuses and the CSV file button are in the page's language`, async ({ browser, data }) => {
      const words = FORM_WORDS[language];
      const { agent, propertyId } = await seedAgentWithListing(data);
      await seedOriginalPhoto(data, { propertyId, roomType: null, isMain: true, fileName: 'hall.jpg' });
      // The account's language is the page's; the browser asks for the other one.
      await data.db.user.update({ where: { id: agent.id }, data: { locale: language } });
      const { context, page } = await freshBrowser(browser, device, OTHER[language]);
      await signInQuickly(page, agent);
      await page.goto(`/properties/${propertyId}`);
      await expect(page.locator('html')).toHaveAttribute('lang', language);

      // A photo without a room type: the form says so itself (the browser's bubble would be in the
      // browser's language), on the field to fix, which takes focus.
      const panel = page.locator('#stage-panel');
      await panel.getByRole('checkbox', { name: 'hall.jpg' }).check();
      await panel.locator('input[type="radio"][value="MODERN"]').check();
      await panel.getByRole('button', { name: words.stage }).click();
      const room = panel.getByRole('combobox', { name: /hall\.jpg/ });
      await expect(panel.getByRole('alert')).toHaveText(words.roomMissing);
      await expect(room).toBeFocused();
      await expect(room).toHaveAttribute('aria-invalid', 'true');
      await expect(room).toHaveAccessibleDescription(words.roomMissing);
      await saveScreenshot(page, `language-${device}-${language}-room-type-missing`, { fullPage: false });
      await room.selectOption('BEDROOM');
      await expect(panel.getByRole('alert')).toHaveCount(0);
      await expect(room).not.toHaveAttribute('aria-invalid', 'true');
      expect(await countStagingJobs(data, propertyId)).toBe(0);

      // An empty unit name and an empty unit number are refused in the page's words.
      await page.goto(`/properties/${propertyId}/inventory`);
      const addUnit = page.getByRole('form', { name: words.addUnit });
      await addUnit.locator('button[type="submit"]').click();
      await expect(addUnit.getByLabel(words.unitName)).toHaveAttribute('aria-invalid', 'true');
      await expect(addUnit.getByLabel(words.unitName)).toHaveAccessibleDescription(words.required);
      await addUnit.getByLabel(words.unitName).fill('Tower');
      await addUnit.locator('button[type="submit"]').click();
      const addItem = page.locator('form').filter({ has: page.getByLabel(words.unitNumber) }).first();
      await addItem.locator('button[type="submit"]').click();
      await expect(addItem.getByLabel(words.unitNumber)).toHaveAccessibleDescription(words.required);

      // The CSV file button and the "no file yet" beside it are the page's, then the file's name.
      await expect(page.getByText(words.chooseCsv, { exact: true })).toBeVisible();
      await expect(page.getByTestId('csv-file-name')).toHaveText(words.noFile);
      await page.getByLabel(words.csvFile).setInputFiles({ name: 'tower.csv', mimeType: 'text/csv', buffer: Buffer.from('unitNumber\nT-1\n') });
      await expect(page.getByTestId('csv-file-name')).toHaveText('tower.csv');
      await expect(page.getByTestId('preview-summary')).toBeVisible();
      await page.getByTestId('csv-file-name').scrollIntoViewIfNeeded();
      await saveScreenshot(page, `language-${device}-${language}-csv-chooser`, { fullPage: false });
      await context.close();
    });
  }
}
