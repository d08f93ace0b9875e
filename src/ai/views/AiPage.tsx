import { Island } from '../../ui/Island';

export type Exchange = {
  query: string;
  response: string;
  suggestedActions: string[];
  at: string;
};

/** /ai: the Ops AI chat island, full page (a server-answered exchange when the form was posted without JS). */
export function AiPage({ exchange }: { exchange?: Exchange }) {
  return (
    <Island
      name="OpsChat"
      props={{ mode: 'page', now: exchange?.at ?? new Date().toISOString(), exchange: exchange ?? null }}
    />
  );
}
