import { type Catalogue, eventDescription } from '../model.js';
import { catalogueDigest } from '../model-digest.js';
import { type ComponentEntry, componentRef, componentSchemas } from '../schema/components.js';
import { documentFiles } from './common/document-files.js';
import { type Emitter, generatedNote } from './context.js';

/**
 * The AsyncAPI 3.0 document: per event version a channel (address = the event key), a message and a
 * `send` operation; payloads reference the same component schemas as the OpenAPI document. `entries`
 * says what the document holds for each entry built from one event or shape (the value by default).
 */
export function buildAsyncApi(
  model: Catalogue,
  entries?: (section: string) => ComponentEntry,
): Record<string, unknown> {
  const keys = Object.keys(model.events).sort();
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const channel = entries?.('channels') ?? asIs;
  const operation = entries?.('operations') ?? asIs;
  const message = entries?.('messages') ?? asIs;
  // Each event is read inside its entries' builders: an entry the last build's text is copied for never
  // reads it (an incremental load makes an event's object only when it is read). One builder per
  // section, given the key, shared by every event's entry.
  const ofMessage = (key: string) => {
    const event = model.events[key]!;
    return {
      name: key,
      title: event.title,
      summary: `${event.type} ${event.version}`,
      description: eventDescription(event),
      contentType: 'application/json',
      payload: { $ref: componentRef(key) },
      tags: [{ name: event.group }],
      'x-event-type': event.type,
      'x-event-version': event.version,
    };
  };
  const ofChannel = (key: string) => ({
    address: key,
    title: model.events[key]!.title,
    messages: { [key]: { $ref: `#/components/messages/${key}` } },
  });
  const ofOperation = (key: string) => ({
    action: 'send',
    title: `Emit ${key}`,
    channel: { $ref: `#/channels/${key}` },
    messages: [{ $ref: `#/channels/${key}/messages/${key}` }],
    tags: [{ name: model.events[key]!.group }],
  });
  for (const key of keys) {
    messages[key] = message('event', key, ofMessage);
    channels[key] = channel('event', key, ofChannel);
    operations[`send.${key}`] = operation('event', key, ofOperation);
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: model.config.title,
      version: model.config.version,
      ...(model.config.description ? { description: model.config.description } : {}),
      tags: model.groups.map((group) => ({ name: group.slug, description: group.title })),
      'x-generated-by': generatedNote('catalogue/'),
      'x-catalogue-hash': catalogueDigest(model),
    },
    defaultContentType: 'application/json',
    channels,
    operations,
    components: { schemas: componentSchemas(model, entries?.('components')), messages },
  };
}

const asIs: ComponentEntry = (_kind, name, build) => build(name);

/** Emits `catalogue/asyncapi.json` and its YAML copy. */
export const emitAsyncApi: Emitter = (model) => documentFiles('catalogue/asyncapi', buildAsyncApi(model));
