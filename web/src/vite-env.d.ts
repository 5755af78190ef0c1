/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** 'true' builds the widget kit showcase at /ui into a production bundle (the Playwright build does). */
  readonly VITE_UI_SHOWCASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
