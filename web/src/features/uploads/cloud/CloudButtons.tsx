import { CLOUD_PICK_FAILED, type CloudPickerConfig, type CloudProvider } from '@avp/shared';
import { useEffect, useState } from 'react';
import { Button } from '../../../ui';
import { cloudConfig } from './api';
import { hasPicker, pickerFor, PROVIDER_LABELS, ProviderUnreachable, type PickedCloudFile } from './pickers';

/** not in SPEC (issue #29): SPEC §8's 'Unable to Save File…' would mislead when nothing was saved. */
export function providerUnreachableText(provider: CloudProvider): string {
  return `${PROVIDER_LABELS[provider]} could not be reached. Check your connection, then try again.`;
}

/** The configured providers with a picker in this app (none while loading, or when none is set up). */
export function useCloudPickers(): CloudPickerConfig[] {
  const [providers, setProviders] = useState<CloudPickerConfig[]>([]);
  useEffect(() => {
    let live = true;
    cloudConfig().then(
      (answer) => {
        if (live) setProviders(answer.providers.filter((p) => hasPicker(p.provider)));
      },
      // Without the configuration the form still takes local files; the buttons just do not appear.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return providers;
}

/** Opens one provider's picker: the files picked, null when the user closed it (SPEC §4: silent). */
export async function pickFrom(config: CloudPickerConfig): Promise<PickedCloudFile[] | null> {
  const picker = await pickerFor(config.provider);
  return picker.pick(config);
}

interface CloudButtonsProps {
  providers: CloudPickerConfig[];
  onPicked: (files: PickedCloudFile[]) => void;
  /**
   * SPEC §8's message when a sign-in or a picker fails, or the provider's own when its scripts cannot
   * be loaded; null clears it.
   */
  onError: (message: string | null) => void;
}

/** One button per configured provider, beside 'Choose files'. */
export function CloudButtons({ providers, onPicked, onError }: CloudButtonsProps) {
  const [opening, setOpening] = useState<CloudProvider | null>(null);

  // Only what needs no network is readied ahead; providers' scripts load on the click (a popup opened
  // within a few seconds of it is still allowed).
  useEffect(() => {
    for (const config of providers) {
      void pickerFor(config.provider)
        .then((picker) => picker.warm?.(config))
        .catch(() => undefined);
    }
  }, [providers]);

  if (providers.length === 0) return null;

  async function open(config: CloudPickerConfig) {
    onError(null);
    setOpening(config.provider);
    try {
      const picked = await pickFrom(config);
      if (picked && picked.length > 0) onPicked(picked);
    } catch (error) {
      onError(
        error instanceof ProviderUnreachable ? providerUnreachableText(config.provider) : CLOUD_PICK_FAILED,
      );
    } finally {
      setOpening(null);
    }
  }

  return (
    <div className="uploads-cloud" role="group" aria-label="Add files from a cloud account">
      <p>or add from</p>
      {providers.map((config) => {
        const label = PROVIDER_LABELS[config.provider];
        const busy = opening === config.provider;
        return (
          <Button
            key={config.provider}
            variant="secondary"
            isDisabled={opening !== null}
            aria-label={`Add files from ${label}`}
            onPress={() => void open(config)}
          >
            {busy ? `Opening ${label}…` : label}
          </Button>
        );
      })}
    </div>
  );
}
