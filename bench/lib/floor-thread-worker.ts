/**
 * A render thread of the uncached render floor (floor-thread.ts): builds the floor's plans for the
 * same recorded replies as its event loop (each checked against its recorded reply, as the floor
 * checks them), says which requests it builds and its thread id, then takes its jobs from the shared memory in
 * order, sleeping in Atomics.wait between them: it never returns to its own event loop.
 */
import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { setPointCheckCache } from '../../src/crypto/curves.js';
import { DONE, FAILED, FloorThreadMemory, type FloorThreadBuffers, type FloorThreadLayout } from './floor-thread-memory.js';
import { floorPlan } from './render-floor-plans.js';
import { readRecordedReplies } from './recorded-replies.js';

export interface FloorThreadData {
  thread: number;
  repliesFile: string;
  layout: FloorThreadLayout;
  buffers: FloorThreadBuffers;
}

const { thread, repliesFile, layout, buffers } = workerData as FloorThreadData;
// As the floor on its event loop: each request's points checked as a new transaction's are.
setPointCheckCache(false);
const recorded = readRecordedReplies(repliesFile);
const plans = recorded.map(({ request, reply }) => floorPlan(request, reply));
const memory = new FloorThreadMemory(layout, buffers);
// This thread's id in /proc (Linux: "<pid>/task/<tid>"), for its CPU to be read from outside.
const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
parentPort!.postMessage({ built: plans.flatMap((p, i) => (p ? [i] : [])), tid });

for (;;) {
  const { slot, plan, body } = memory.nextJob(thread);
  try {
    const build = plans[plan];
    if (!build) throw new Error(`no plan ${plan} builds a reply`);
    const length = recorded[plan]!.reply.body.length;
    build(body, memory.output(slot, length));
    memory.finish(thread, slot, DONE, length);
  } catch (e) {
    const text = Buffer.from(String(e instanceof Error ? e.message : e));
    const length = Math.min(text.length, layout.outputBytes);
    text.copy(memory.output(slot, length));
    memory.finish(thread, slot, FAILED, length);
  }
}
