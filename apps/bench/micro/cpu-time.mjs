// CPU time (user + system, microseconds) of this process: on the shared 2-core machine the wall
// clock of a single-threaded loop mostly measures the other engineers' load; its CPU time much less.
export const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
