import type { CountryCode } from '@provee/domain';
import type { ScreenCopyKey, screenCopy } from './copy-screens.js';

/**
 * All Spanish text the user reads, keyed; country overrides replace single keys. Here what the
 * landing and the shell show (the first load); every other screen's texts are in copy-screens.ts,
 * which the router loads with the first of those screens (loadScreenCopy).
 */
const es = {
  'home.title': 'Surte tu negocio con {appName}',
  'home.subtitle': 'Ingresa tu número celular y te enviaremos un código para verificarlo.',
  'home.prefix': 'Prefijo',
  'home.phone': 'Teléfono celular',
  'home.phoneValid': 'Número válido',
  'home.privacy': 'Aviso de Privacidad',
  'home.privacyIntro': 'Al continuar aceptas nuestro',
  'code.changePhone': 'Cambiar número télefonico',
  'common.continue': 'Continuar',
  'common.understood': 'Entendido',
  'common.loading': 'Cargando…',
  'help.label': 'Tengo dudas con mi registro',
  'shell.myData': 'Mis datos',
  'testMode.label': 'Modo de prueba',
  'testMode.text': 'los mensajes son simulados.',
  // One line of the 24 px banner at 360 px: ~46 characters with the label.
  'testMode.seal': 'contratos con sello de prueba.',
  'testMode.both': 'mensajes y sellos simulados.',
  'error.title': '¡Parece que hubo un error!',
  'app.loadError': 'No pudimos cargar la aplicación. Revisa tu conexión y vuelve a intentarlo.',
} as const;

type LandingCopyKey = keyof typeof es;
export type CopyKey = LandingCopyKey | ScreenCopyKey;

const overrides: Record<CountryCode, Partial<Record<LandingCopyKey, string>>> = { do: {}, mx: {} };

let country: CountryCode = 'do';
let screens: typeof screenCopy | null = null;
let loading: Promise<void> | null = null;

export function setCopyCountry(code: CountryCode): void {
  country = code;
}

/** The texts of the screens past the landing (copy-screens.ts), once; a failed load is tried again next time. */
export function loadScreenCopy(): Promise<void> {
  loading ??= import('./copy-screens.js').then(
    (module) => {
      screens = module.screenCopy;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

function text(key: CopyKey): string | undefined {
  if (key in es) return overrides[country][key as LandingCopyKey] ?? es[key as LandingCopyKey];
  return screens?.overrides[country][key as ScreenCopyKey] ?? screens?.es[key as ScreenCopyKey];
}

export function t(key: CopyKey, vars: Record<string, string | number> = {}): string {
  const found = text(key);
  if (found === undefined) {
    // A screen rendered without its texts: the router's lazy screens load them (loadScreenCopy).
    console.error(`copy: '${key}' used before loadScreenCopy()`);
    return key;
  }
  return found.replace(/\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
}
