// The 'Sobre ti' form as a shopkeeper fills it: no test fixtures here, so the performance script
// (scripts/perf/flow.mjs) drives the same screen the same way.
import type { Page } from '@playwright/test';

/** The 'Sobre ti' form of a shopkeeper born 28 February 1985 (an adult on any day of the tests). */
export async function fillAboutYou(page: Page, name = 'María José'): Promise<void> {
  await page.getByLabel('Nombres').fill(name);
  await page.getByLabel('Apellido paterno').fill('Peña');
  await page.getByLabel('Apellido materno (opcional)').fill('Núñez');
  await page.getByLabel('Mes').selectOption({ label: 'Febrero' });
  await page.getByLabel('Día').selectOption('28');
  await page.getByLabel('Año').selectOption('1985');
  await page
    .getByLabel('¿Cuánto tiempo llevas viviendo en tu domicilio actual?')
    .selectOption({ label: '4 o más años' });
  await page.getByLabel('Estado civil').selectOption({ label: 'Casado(a)' });
}
