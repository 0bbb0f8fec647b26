export const summary = 'run a lifecycle scenario and print what kubectl, crictl and journalctl show';
export async function run(_args: string[]): Promise<number> {
  console.error('podlife simulate: not implemented yet');
  return 1;
}
